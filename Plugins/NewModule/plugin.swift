import PackagePlugin
@main struct NewModule: CommandPlugin { func performCommand(context: PluginContext, arguments: [String]) async throws {} }
