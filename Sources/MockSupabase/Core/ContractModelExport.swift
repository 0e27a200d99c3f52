// The mock serves what the contract model describes; code that imports MockSupabase sees the
// model's types (schema, policies, JSON and SQL values) without a second import.
@_exported import ContractModel
