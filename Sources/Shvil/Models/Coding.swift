import Foundation
import ContractKit

/// JSON coding of Shvil rows as PostgREST prints them (shared with the other apps).
public typealias ShvilCoding = PostgresRowCoding
