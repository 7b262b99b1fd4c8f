// `import Core` is every layer of the kernel, as a module needs it: its actions (HogwartsKernel),
// commands (HogwartsCLI), routes (HogwartsHTTP), console pages (HogwartsConsole) and offline
// mutations (HogwartsSync). A package that needs fewer layers imports them one by one.
@_exported import HogwartsBase
@_exported import HogwartsKernel
@_exported import HogwartsHTTP
@_exported import HogwartsSync
@_exported import HogwartsConsole
@_exported import HogwartsCLI
