import Foundation

extension DatabaseSchema {
    /// The schema as a request to the exposed schema `name` (its `Accept-Profile` or
    /// `Content-Profile`) sees it: that schema first, so bare names, embedding and messages
    /// resolve among its tables as PostgREST's do under the profile's `search_path`
    /// (MultipleSchemaSpec.hs embeds `parent(*)` within `v2`). Itself for the first schema.
    func seen(from name: String) -> DatabaseSchema {
        guard name != apiSchema, exposedSchemas.contains(name) else { return self }
        var s = self
        s.exposedSchemas = [name] + exposedSchemas.filter { $0 != name }
        return s
    }
}
