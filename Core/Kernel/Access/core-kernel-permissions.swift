import Foundation

/// Permissions the kernel itself defines, for the operations every school has.
public enum KernelPermissions {
    /// Switch modules on or off for a school.
    public static let manageModules: Permission = "kernel.modules.manage"
    /// Change a school's module settings.
    public static let manageSettings: Permission = "kernel.settings.manage"

    static var definitions: [PermissionDefinition] {
        let catalog = CoreResources.catalog
        return [
            PermissionDefinition(manageModules, summary: LocalizedText(key: "kernel.permission.modules-manage", catalog: catalog), grants: .administrators),
            PermissionDefinition(manageSettings, summary: LocalizedText(key: "kernel.permission.settings-manage", catalog: catalog), grants: .administrators),
        ]
    }
}

/// Core's own resources (its string catalog), loaded once.
package enum CoreResources {
    package static let catalog = StringCatalog.load(from: .module)
}
