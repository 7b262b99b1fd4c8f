import Core
import Foundation
import HogwartsModuleABI

/// Compiled modules from a folder (`--modules-dir`, `HOGWARTS_MODULES_DIR`), loaded once at
/// start and never unloaded (unloading Swift code crashes). Every file is checked before any is
/// used: its handshake block, its entry points, its module id and its dependencies. One refusal
/// stops the start, naming the file, so nothing is half-loaded.
enum LoadableModules {
    /// Why a file was refused: one sentence for the operator, in their language.
    struct Refusal: Error {
        let sentence: LocalizedText
        let values: [String: String]
    }

    /// The modules of every `*.so` in `directory`, in file-name order, checked against `builtIn`.
    static func load(from directory: String, beside builtIn: [any AppModule]) throws(Refusal) -> [any AppModule] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".so") }.sorted()
        } catch {
            throw Refusal(sentence: Sentences.unreadableDirectory, values: ["directory": directory])
        }
        var loaded: [(file: String, module: any AppModule)] = []
        for name in names {
            let file = URL(fileURLWithPath: directory).appending(path: name).path
            let module = try open(file)
            let taken = builtIn.map(\.id) + loaded.map(\.module.id)
            guard !taken.contains(module.id) else {
                throw Refusal(sentence: Sentences.duplicate, values: ["file": file, "module": module.id])
            }
            loaded.append((file, module))
        }
        let available = builtIn + loaded.map(\.module)
        for (file, module) in loaded {
            try checkDependencies(of: module, in: file, against: available)
        }
        return loaded.map(\.module)
    }

    /// Opens one file: the loader resolves every symbol now (a kernel symbol this host lacks is a
    /// refusal here), then the block is compared field by field before the Swift entry point runs.
    private static func open(_ file: String) throws(Refusal) -> any AppModule {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            throw Refusal(sentence: Sentences.unloadable, values: ["file": file, "reason": dlerror().map { String(cString: $0) } ?? "", "host": hostDescription])
        }
        guard let magicSymbol = dlsym(handle, HOGWARTS_MODULE_MAGIC_SYMBOL) else {
            throw Refusal(sentence: Sentences.noEntryPoint, values: ["file": file, "symbol": HOGWARTS_MODULE_MAGIC_SYMBOL])
        }
        let magicFunction = unsafeBitCast(magicSymbol, to: hogwarts_module_magic_function.self)
        guard let block = magicFunction()?.pointee, block.magic == HOGWARTS_MODULE_MAGIC else {
            throw Refusal(sentence: Sentences.notAModule, values: ["file": file])
        }
        let built = describe(block)
        guard built == hostDescription else {
            throw Refusal(sentence: Sentences.mismatch, values: ["file": file, "built": built, "host": hostDescription])
        }
        guard let createSymbol = dlsym(handle, HOGWARTS_MODULE_CREATE_SYMBOL) else {
            throw Refusal(sentence: Sentences.noEntryPoint, values: ["file": file, "symbol": HOGWARTS_MODULE_CREATE_SYMBOL])
        }
        let declaredID = block.module_id.map { String(cString: $0) } ?? ""
        let create = unsafeBitCast(createSymbol, to: hogwarts_module_create_function.self)
        guard let made = create() else {
            throw Refusal(sentence: Sentences.notAModule, values: ["file": file])
        }
        let module = Unmanaged<LoadedModule>.fromOpaque(made).takeRetainedValue().module
        guard ModuleRegistry.isValidID(declaredID), module.id == declaredID else {
            throw Refusal(sentence: Sentences.unknownID, values: ["file": file, "declared": declaredID, "module": module.id])
        }
        return module
    }

    private static func checkDependencies(of module: any AppModule, in file: String, against available: [any AppModule]) throws(Refusal) {
        for dependency in module.dependencies {
            let values = ["file": file, "module": module.id, "dependency": dependency.moduleID, "range": dependency.range]
            guard let provider = available.first(where: { $0.id == dependency.moduleID }) else {
                throw Refusal(sentence: Sentences.missingDependency, values: values)
            }
            guard let range = try? VersionRange(dependency.range), range.contains(provider.version) else {
                throw Refusal(sentence: Sentences.wrongVersion, values: values.merging(["found": provider.version.description]) { $1 })
            }
        }
    }

    /// This host's own block, in the words a refusal uses.
    static let hostDescription = describe(hogwarts_host_magic().pointee)

    private static func describe(_ block: hogwarts_module_block) -> String {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "?" }
        return "Hogwarts SDK \(text(block.sdk_version)), module contract \(block.contract), \(text(block.configuration)) build for \(text(block.architecture)), toolchain \(text(block.toolchain))"
    }
}
