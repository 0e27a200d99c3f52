import Foundation
import ContractKit

/// JSON coding of CivicForge rows as PostgREST prints them (shared with the other apps).
public typealias CivicForgeCoding = PostgresRowCoding
