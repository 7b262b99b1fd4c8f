/// A module's stable identifier, such as `attendance`: lowercase letters, digits and hyphens.
/// It prefixes the module's tables, permissions, actions, events, settings and string keys.
public typealias ModuleID = String

/// The tenant's identifier: every module row carries it as `school_id`.
public typealias SchoolID = String
