import Foundation

/// An `interval` as PostgreSQL stores it: months, days and microseconds kept apart (a month is
/// not a fixed number of days), compared and hashed by the span `interval_cmp` uses (30-day
/// months, 24-hour days), so `'1 mon' = '30 days'`.
package struct PGInterval: Sendable, Hashable, CustomStringConvertible {
    package var months: Int32 = 0
    package var days: Int32 = 0
    package var micros: Int64 = 0

    /// The span `interval_cmp_value` orders by, in microseconds (fits: |months| < 2^31).
    var span: (high: Int64, low: Int64) {
        let dayMicros: Int64 = 86_400_000_000
        let totalDays = Int64(months) * 30 + Int64(days)
        // days * 86.4e9 can exceed Int64 only for absurd spans; split into days and remainder.
        let extraDays = micros / dayMicros
        let rem = micros % dayMicros
        var d = totalDays + extraDays, r = rem
        if r < 0 { r += dayMicros; d -= 1 }
        return (d, r)
    }

    package static func compare(_ a: PGInterval, _ b: PGInterval) -> Int {
        let x = a.span, y = b.span
        if x.high != y.high { return x.high < y.high ? -1 : 1 }
        return x.low == y.low ? 0 : (x.low < y.low ? -1 : 1)
    }

    package static func == (a: PGInterval, b: PGInterval) -> Bool { compare(a, b) == 0 }
    package func hash(into h: inout Hasher) { let s = span; h.combine(s.high); h.combine(s.low) }

    /// The `postgres` IntervalStyle output (datetime.c `EncodeInterval`): `1 year 2 mons 3 days
    /// 04:05:06.5`, each field with its own sign, `+` before a positive field after a negative
    /// one, `00:00:00` for zero.
    package var description: String {
        var out = ""
        var isZero = true, isBefore = false
        func part(_ value: Int64, _ unit: String) {
            guard value != 0 else { return }
            out += (isZero ? "" : " ") + (isBefore && value > 0 ? "+" : "") + "\(value) \(unit)" + (value != 1 ? "s" : "")
            isBefore = value < 0
            isZero = false
        }
        part(Int64(months / 12), "year")
        part(Int64(months % 12), "mon")
        part(Int64(days), "day")
        if isZero || micros != 0 {
            let minus = micros < 0
            let m = micros.magnitude
            let hours = m / 3_600_000_000, minutes = m / 60_000_000 % 60, seconds = m / 1_000_000 % 60, frac = m % 1_000_000
            func two(_ v: UInt64) -> String { v < 10 ? "0\(v)" : "\(v)" }
            out += (isZero ? "" : " ") + (minus ? "-" : (isBefore ? "+" : "")) + "\(two(hours)):\(two(minutes)):\(two(seconds))"
            if frac != 0 {
                var f = String(frac)
                f = String(repeating: "0", count: 6 - f.count) + f
                while f.hasSuffix("0") { f.removeLast() }
                out += "." + f
            }
        }
        return out
    }

    /// Reads `interval_in`'s common forms: `@`-prefixed or plain `<number> <unit>` lists
    /// (fractions spill down: `1.5 days` is `1 day 12:00:00`, a fractional month is 30-day
    /// months), a `[-]HH:MM[:SS[.f]]` time field, a bare number of seconds, a trailing `ago`,
    /// and ISO 8601 durations (`P1Y2M3DT4H5M6S`, `P2W`). Nil when PostgreSQL would refuse it.
    package static func parse(_ raw: String) -> PGInterval? {
        var t = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !t.isEmpty else { return nil }
        if t.hasPrefix("p") { return parseISO(String(t.dropFirst())) }
        if t.hasPrefix("@") { t = String(t.dropFirst()) }
        var words = t.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var ago = false
        if words.last == "ago" { ago = true; words.removeLast() }
        guard !words.isEmpty else { return nil }
        var acc = Accumulator()
        var i = 0
        var sawTime = false
        while i < words.count {
            var w = words[i]
            if w.contains(":") {
                guard !sawTime, let us = parseClock(w) else { return nil }
                acc.micros += Double(us)
                sawTime = true
                i += 1
                continue
            }
            // `1day`, `2hours` written together.
            var unit: String?
            if let k = w.firstIndex(where: { $0.isLetter }), k != w.startIndex {
                unit = String(w[k...])
                w = String(w[..<k])
            }
            guard let n = Double(w), w.allSatisfy({ $0.isNumber || "+-.".contains($0) }) else { return nil }
            if unit == nil {
                if i + 1 < words.count, words[i + 1].first?.isLetter == true {
                    unit = words[i + 1]
                    i += 1
                }
            }
            if let unit {
                guard acc.add(n, unit: unit) else { return nil }
            } else {
                acc.micros += n * 1_000_000
            }
            i += 1
        }
        var v = acc.interval
        if ago { v = PGInterval(months: -v.months, days: -v.days, micros: -v.micros) }
        return v
    }

    /// The `PnYnMnDTnHnMnS` / `PnW` forms (after the `P`).
    static func parseISO(_ s: String) -> PGInterval? {
        var acc = Accumulator()
        var inTime = false
        var num = ""
        var any = false
        for c in s {
            if c == "t" { guard !inTime else { return nil }; inTime = true; continue }
            if c.isNumber || c == "." || c == "-" || c == "+" { num.append(c); continue }
            guard let n = Double(num) else { return nil }
            num = ""
            any = true
            let unit: String
            switch (c, inTime) {
            case ("y", false): unit = "year"
            case ("m", false): unit = "month"
            case ("w", false): unit = "week"
            case ("d", false): unit = "day"
            case ("h", true): unit = "hour"
            case ("m", true): unit = "minute"
            case ("s", true): unit = "second"
            default: return nil
            }
            _ = acc.add(n, unit: unit)
        }
        guard num.isEmpty, any else { return nil }
        return acc.interval
    }

    /// `[-]H+:MM[:SS[.ffffff]]` in microseconds.
    static func parseClock(_ w: String) -> Int64? {
        var s = Substring(w)
        var negative = false
        if s.first == "-" || s.first == "+" { negative = s.first == "-"; s = s.dropFirst() }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let h = Int64(parts[0]), let m = Int64(parts[1]), m < 60 else { return nil }
        var us = (h * 3600 + m * 60) * 1_000_000
        if parts.count == 3 {
            guard let sec = Double(parts[2]), sec >= 0, sec < 60, parts[2].allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
            us += Int64((sec * 1_000_000).rounded())
        }
        return negative ? -us : us
    }

    /// Sums fields, spilling fractions down as `interval_in` does (AdjustFractDays/Seconds).
    struct Accumulator {
        var months: Double = 0
        var days: Double = 0
        var micros: Double = 0

        mutating func add(_ n: Double, unit raw: String) -> Bool {
            switch raw {
            case "microsecond", "microseconds", "us", "usec", "usecs", "useconds", "microsecon": micros += n
            case "millisecond", "milliseconds", "ms", "msec", "msecs", "mseconds": micros += n * 1_000
            case "second", "seconds", "s", "sec", "secs": micros += n * 1_000_000
            case "minute", "minutes", "m", "min", "mins": micros += n * 60_000_000
            case "hour", "hours", "h", "hr", "hrs": micros += n * 3_600_000_000
            case "day", "days", "d": addDays(n)
            case "week", "weeks", "w": addDays(n * 7)
            case "month", "months", "mon", "mons": addMonths(n)
            case "year", "years", "y", "yr", "yrs": addMonths(n * 12)
            case "decade", "decades": addMonths(n * 120)
            case "century", "centuries": addMonths(n * 1200)
            case "millennium", "millennia", "millenniums": addMonths(n * 12000)
            default: return false
            }
            return true
        }

        mutating func addDays(_ n: Double) {
            let whole = n.rounded(.towardZero)
            days += whole
            micros += (n - whole) * 86_400_000_000
        }

        mutating func addMonths(_ n: Double) {
            let whole = n.rounded(.towardZero)
            months += whole
            addDays((n - whole) * 30)
        }

        var interval: PGInterval {
            PGInterval(months: Int32(clamping: Int64(months)), days: Int32(clamping: Int64(days)), micros: Int64(micros.rounded()))
        }
    }
}

/// `time with time zone`: a time of day and the zone offset it was written with (seconds east of
/// UTC). Ordered as `timetz_cmp` orders: by the UTC instant, then by offset (east last… as
/// PostgreSQL stores seconds west, a larger offset east sorts first).
package struct PGTimeTZ: Sendable, Hashable, CustomStringConvertible {
    /// Microseconds since local midnight.
    package var micros: Int64
    /// Offset east of UTC in seconds (`+05:30` is 19800).
    package var offset: Int32

    static func compare(_ a: PGTimeTZ, _ b: PGTimeTZ) -> Int {
        let ua = a.micros - Int64(a.offset) * 1_000_000, ub = b.micros - Int64(b.offset) * 1_000_000
        if ua != ub { return ua < ub ? -1 : 1 }
        // zone (seconds west) ascending = offset east descending.
        return a.offset == b.offset ? 0 : (a.offset > b.offset ? -1 : 1)
    }

    /// `06:00:00+00` / `06:00:00+05:30` (text output).
    package var description: String { PGTime.formatTime(micros) + PGTimeTZ.zone(offset, xsd: false) }

    /// What `to_json` prints: the text output (`06:00:00+00`; unlike timestamptz, no XSD style).
    package var jsonText: String { description }

    /// `+HH[:MM[:SS]]` as PostgreSQL prints an offset; XSD style always has the minutes.
    static func zone(_ offset: Int32, xsd: Bool) -> String {
        let m = Int(offset.magnitude)
        let h = m / 3600, mi = m / 60 % 60, s = m % 60
        var out = (offset < 0 ? "-" : "+") + PGTime.pad(h, 2)
        if xsd || mi != 0 || s != 0 { out += ":" + PGTime.pad(mi, 2) }
        if s != 0 { out += ":" + PGTime.pad(s, 2) }
        return out
    }

    /// `HH:MM[:SS[.f]]` with an optional zone (`Z`, `UTC`, `+HH`, `+HH:MM`, `+HHMM`); no zone
    /// is the session's (`defaultOffset`). Nil when malformed.
    package static func parse(_ raw: String, defaultOffset: Int32 = 0) -> PGTimeTZ? {
        let t = raw.trimmingCharacters(in: .whitespaces)
        var sc = PGTime.Scanner(Array(t.utf8))
        guard let us = sc.time() else { return nil }
        if sc.peek == UInt8(ascii: " ") { sc.i += 1 }
        if sc.atEnd { return PGTimeTZ(micros: us, offset: defaultOffset) }
        let rest = sc.rest
        if rest == "Z" || rest == "z" || rest.uppercased() == "UTC" || rest.uppercased() == "GMT" { return PGTimeTZ(micros: us, offset: 0) }
        guard let sign = sc.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        sc.i += 1
        var hh: Int
        if let v = sc.digits(2) { hh = v } else if let v = sc.digits(1) { hh = v } else { return nil }
        var mm = 0
        if sc.peek == UInt8(ascii: ":") { sc.i += 1; guard let v = sc.digits(2) else { return nil }; mm = v } else if let v = sc.digits(2) { mm = v }
        guard sc.atEnd, hh <= 15, mm < 60 else { return nil }
        if hh == 24 { return nil }
        let off = Int32(hh * 3600 + mm * 60)
        return PGTimeTZ(micros: us, offset: sign == UInt8(ascii: "+") ? off : -off)
    }
}

/// `bytea` text forms: the hex output `\x…` PostgreSQL prints (bytea_output = hex) and both
/// input forms (`\x` hex, and the escape form where `\\` is a backslash and `\ooo` an octal byte).
package enum PGBytea {
    /// The bytes of `bytea_in`'s input, or PostgreSQL's error (22023 for bad hex, 22P02 for a
    /// bad escape).
    package static func parse(_ s: String) throws -> [UInt8] {
        let b = Array(s.utf8)
        if b.count >= 2, b[0] == UInt8(ascii: "\\"), b[1] == UInt8(ascii: "x") || b[1] == UInt8(ascii: "X") {
            var out: [UInt8] = []
            var i = 2
            func hex(_ c: UInt8) -> UInt8? { c.hexDigitValue }
            while i < b.count {
                if b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1; continue }
                guard let hi = hex(b[i]) else { throw badDigit(b[i]) }
                guard i + 1 < b.count else { throw PostgresError("22023", "invalid hexadecimal data: odd number of digits") }
                guard let lo = hex(b[i + 1]) else { throw badDigit(b[i + 1]) }
                out.append(hi << 4 | lo)
                i += 2
            }
            return out
        }
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            if b[i] != UInt8(ascii: "\\") { out.append(b[i]); i += 1; continue }
            if i + 1 < b.count, b[i + 1] == UInt8(ascii: "\\") { out.append(0x5C); i += 2; continue }
            guard i + 3 < b.count, (0x30...0x33).contains(b[i + 1]), (0x30...0x37).contains(b[i + 2]), (0x30...0x37).contains(b[i + 3]) else {
                throw PostgresError("22P02", "invalid input syntax for type bytea")
            }
            out.append((b[i + 1] - 0x30) << 6 | (b[i + 2] - 0x30) << 3 | (b[i + 3] - 0x30))
            i += 4
        }
        return out
    }

    static func badDigit(_ c: UInt8) -> PostgresError {
        PostgresError("22023", "invalid hexadecimal digit: \"\(String(decoding: [c], as: UTF8.self))\"")
    }

    /// `\x` followed by two lower-case hex digits a byte (the order of these texts is the bytes' order).
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [0x5C, UInt8(ascii: "x")]
        out.reserveCapacity(2 + bytes.count * 2)
        for x in bytes { out.append(digits[Int(x >> 4)]); out.append(digits[Int(x & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
