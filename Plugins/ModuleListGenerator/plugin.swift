import Foundation
import PackagePlugin

/// Generates the host's list of built-in modules from the host target's dependencies.
///
/// Every dependency whose sources live under `Modules/` is a feature module named `<Name>` that
/// exports `public struct <Name>Module: AppModule`. Generating the list (instead of keeping it by
/// hand in Host/) is what lets a new module land without touching Host/.
@main
struct ModuleListGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let moduleNames = target.dependencies.compactMap { dependency -> String? in
            guard case .target(let dependencyTarget) = dependency,
                  dependencyTarget.directoryURL.deletingLastPathComponent().lastPathComponent == "Modules"
            else { return nil }
            return dependencyTarget.name
        }.sorted()
        let output = context.pluginWorkDirectoryURL.appending(path: "built-in-modules.swift")
        return [
            .buildCommand(
                displayName: "Generating the list of built-in modules (\(moduleNames.count))",
                executable: try context.tool(named: "GenerateModuleList").url,
                arguments: [output.path()] + moduleNames,
                inputFiles: [],
                outputFiles: [output]
            )
        ]
    }
}
