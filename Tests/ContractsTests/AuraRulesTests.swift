import Foundation
import XCTest
import MockBinding
import MockSupabase
@testable import Aura

/// Aura's domain rules (rules.json) against the document's own statements.
final class AuraRulesTests: GateTestCase {
    // MARK: Zodiac (§2.1, §9.1)

    func testZodiacTableGivesEveryDocumentedCaseAndBoundary() throws {
        let rules = try AuraTestSupport.rules()
        AuraTestSupport.assertNoViolations(AuraConformance.zodiacViolations(ZodiacCalculator(rules: rules), rules: rules), "zodiac")
        XCTAssertEqual(rules.zodiacCases.count, 51, "3 cases of §9.1 and 48 boundary days of the §2.1 switch")
    }

    /// The §2.1 switch, transcribed verbatim, agrees with the table on every day of a leap year.
    func testZodiacTableAgreesWithTheDocumentSwitch() throws {
        func documentSign(month: Int, day: Int) -> ZodiacSign {
            switch (month, day) {
            case (3, 21...31), (4, 1...19): return .aries
            case (4, 20...30), (5, 1...20): return .taurus
            case (5, 21...31), (6, 1...20): return .gemini
            case (6, 21...30), (7, 1...22): return .cancer
            case (7, 23...31), (8, 1...22): return .leo
            case (8, 23...31), (9, 1...22): return .virgo
            case (9, 23...30), (10, 1...22): return .libra
            case (10, 23...31), (11, 1...21): return .scorpio
            case (11, 22...30), (12, 1...21): return .sagittarius
            case (12, 22...31), (1, 1...19): return .capricorn
            case (1, 20...31), (2, 1...18): return .aquarius
            default: return .pisces
            }
        }
        let calc = ZodiacCalculator(rules: try AuraTestSupport.rules())
        var day = PGDate(year: 2024, month: 1, day: 1)!
        var checked = 0
        while day.year == 2024 {
            XCTAssertEqual(calc.sign(for: day), documentSign(month: day.month, day: day.day), "\(day)")
            day = day.next
            checked += 1
        }
        XCTAssertEqual(checked, 366)
    }

    func testWrongZodiacTablesAreRejected() throws {
        let rules = try AuraTestSupport.rules()
        func mutant(_ change: (inout [AuraRules.SignRange]) -> Void) -> [String] {
            var signs = rules.signs
            change(&signs)
            return AuraConformance.zodiacViolations(ZodiacCalculator(signs: signs), rules: rules)
        }
        AuraTestSupport.assertViolations(mutant { $0[0].from = MonthDay("03-20")! }, "aries starting on 03-20")
        AuraTestSupport.assertViolations(
            mutant {
                $0[9].to = MonthDay("01-20")!; $0[10].from = MonthDay("01-21")!
            }, "capricorn ending on 01-20")
        AuraTestSupport.assertViolations(
            mutant {
                let s = $0[4].sign; $0[4].sign = $0[5].sign; $0[5].sign = s
            }, "leo and virgo swapped")
        AuraTestSupport.assertViolations(mutant { $0.removeLast() }, "pisces missing (02-29 uncovered)")
        AuraTestSupport.assertViolations(mutant { $0[11].to = MonthDay("03-21")! }, "pisces overlapping aries")
    }

    // MARK: MBTI (§9.1)

    func testMBTIConventionGivesEveryDocumentedCase() throws {
        let rules = try AuraTestSupport.rules()
        let calc = MBTICalculator(rules: rules)
        AuraTestSupport.assertNoViolations(AuraConformance.mbtiViolations(calc, rules: rules), "mbti")
        // §9.1 MBTITests, as written.
        let answers = [
            MBTIAnswer(dimension: "E/I", score: -80), MBTIAnswer(dimension: "S/N", score: 60),
            MBTIAnswer(dimension: "T/F", score: -70), MBTIAnswer(dimension: "J/P", score: 50)
        ]
        XCTAssertEqual(try calc.calculate(from: answers).typeCode, "INTJ")
    }

    func testWrongSignConventionsAreRejected() throws {
        let rules = try AuraTestSupport.rules()
        func mutant(_ change: (inout [AuraRules.Dimension]) -> Void) -> [String] {
            var d = rules.dimensions
            change(&d)
            return AuraConformance.mbtiViolations(MBTICalculator(dimensions: d, scoreRange: rules.scoreRange), rules: rules)
        }
        // The "uniform" convention (positive = first letter everywhere) misreads §9.1's S/N and T/F.
        AuraTestSupport.assertViolations(
            mutant {
                $0[1].positive = "S"; $0[1].negative = "N"; $0[2].positive = "T"; $0[2].negative = "F"
            },
            "positive = first letter")
        AuraTestSupport.assertViolations(
            mutant {
                $0[0].positive = "I"; $0[0].negative = "E"
            }, "E/I inverted")
        AuraTestSupport.assertViolations(
            mutant {
                $0[3].positive = "P"; $0[3].negative = "J"
            }, "J/P inverted")
        AuraTestSupport.assertViolations(mutant { $0[0].tie = "E" }, "ties going to E")
        AuraTestSupport.assertViolations(mutant { $0[3].tie = "J" }, "ties going to J")
        AuraTestSupport.assertViolations(mutant { $0.swapAt(1, 2) }, "letters in the wrong order")
    }

    func testAnswersAreAveragedAndValidated() throws {
        let calc = MBTICalculator(rules: try AuraTestSupport.rules())
        let answers = [
            MBTIAnswer(dimension: "E/I", score: -80), MBTIAnswer(dimension: "E/I", score: 20),
            MBTIAnswer(dimension: "S/N", score: 60), MBTIAnswer(dimension: "T/F", score: -70), MBTIAnswer(dimension: "J/P", score: 50),
            MBTIAnswer(dimension: "J/P", score: -60)
        ]
        let r = try calc.calculate(from: answers)
        XCTAssertEqual(r.scores.map(\.dimension), ["E/I", "S/N", "T/F", "J/P"])
        XCTAssertEqual(r.scores.map(\.score), [-30, 60, -70, -5])
        XCTAssertEqual(r.typeCode, "INTP")
        XCTAssertThrowsError(try calc.calculate(from: Array(answers.dropFirst(2)))) { XCTAssertEqual("\($0)", "no answer for dimension E/I") }
        XCTAssertThrowsError(try calc.calculate(from: answers + [MBTIAnswer(dimension: "J/P", score: 100.5)])) {
            XCTAssertEqual("\($0)", "answers[6].score 100.5 is outside -100…100")
        }
        XCTAssertThrowsError(try calc.calculate(from: answers + [MBTIAnswer(dimension: "X/Y", score: 1)])) {
            XCTAssertEqual("\($0)", "answers[6].dimension 'X/Y' is not one of E/I, S/N, T/F, J/P")
        }
    }

    /// Each function stack is the dominant-auxiliary-tertiary-inferior stack of its letters.
    func testCognitiveFunctionStacksAreWellFormed() throws {
        let rules = try AuraTestSupport.rules()
        XCTAssertEqual(Set(rules.types), Set(MBTIType.allCases.map(\.rawValue)))
        for t in rules.types {
            let stack = try XCTUnwrap(rules.cognitiveFunctions[t], t)
            XCTAssertEqual(stack.count, 4, t)
            let letters = Array(t)
            let extravert = letters[0] == "E", judging = letters[3] == "J"
            let perceiving = String(letters[1]), deciding = String(letters[2])
            // The J/P letter names the extraverted function of the top two.
            let extravertedIsJudging = judging
            let dom = extravert ? (extravertedIsJudging ? deciding : perceiving) : (extravertedIsJudging ? perceiving : deciding)
            let aux = dom == deciding ? perceiving : deciding
            let opposite: [String: String] = ["N": "S", "S": "N", "T": "F", "F": "T"]
            let e = "e", i = "i"
            let expected = [
                dom + (extravert ? e : i), aux + (extravert ? i : e),
                opposite[aux]! + (extravert ? e : i), opposite[dom]! + (extravert ? i : e)
            ]
            XCTAssertEqual(stack, expected, t)
        }
        let p = try MBTIProfile(typeCode: "INTJ", rules: rules)
        XCTAssertEqual(p.cognitiveFunctions.map(\.position), [1, 2, 3, 4])
        XCTAssertEqual(p.strengths.count, 4)
    }

    // MARK: Subscription (§8, §9.1, §9.2)

    func testSubscriptionTestsOfTheDocument() throws {
        let rules = try AuraTestSupport.rules()
        let free = SubscriptionStatus(tier: .free, rules: rules)
        XCTAssertFalse(free.canAccessPremiumContent)
        XCTAssertFalse(free.canViewHistoricalData)
        let premium = SubscriptionStatus(tier: .premium, rules: rules)
        XCTAssertTrue(premium.canAccessPremiumContent)
        XCTAssertTrue(premium.canViewHistoricalData)
        // §9.2: Career opens the paywall for a free user, Love opens a reading; premium has all 5 (§8.2).
        XCTAssertFalse(free.canAccess(.career))
        XCTAssertTrue(free.canAccess(.love))
        XCTAssertEqual(Set(premium.entitlements.categories), Set(SituationCategory.allCases))
        XCTAssertEqual(premium.entitlements.weeklyOutlookDays, 7)
        let f = rules.wordCount[.free]!, pr = rules.wordCount[.premium]!
        XCTAssertEqual([f.min, f.max, pr.min, pr.max], [100, 150, 250, 350], "§3.2 wordCount")
    }

    func testSubscriptionRowsGiveTheirTier() throws {
        let rules = try AuraTestSupport.rules()
        let real = { (row: [String: JSONValue]?, now: Date) in SubscriptionStatus.tier(row: row, now: now, rules: rules) }
        AuraTestSupport.assertNoViolations(AuraConformance.entitlementViolations(real, rules: rules), "entitlements")
        // Mutants: tier alone decides; expiry ignored; is_active ignored.
        AuraTestSupport.assertViolations(
            AuraConformance.entitlementViolations({ row, _ in row?["tier"] == "premium" ? .premium : .free }, rules: rules), "tier only")
        AuraTestSupport.assertViolations(
            AuraConformance.entitlementViolations(
                { row, _ in
                    row?["tier"] == "premium" && row?["is_active"] == true ? .premium : .free
                }, rules: rules), "expiry ignored")
        AuraTestSupport.assertViolations(
            AuraConformance.entitlementViolations(
                { row, now in
                    var r = row; r?["is_active"] = true; return SubscriptionStatus.tier(row: r, now: now, rules: rules)
                }, rules: rules), "is_active ignored")
    }

    // MARK: Fortune (§4.2, §6.1)

    func testFortuneBandsFollowTheFortuneCard() throws {
        let rules = try AuraTestSupport.rules()
        func documentColor(_ s: Int) -> String {
            switch s {
            case 80...100: return "green"
            case 60...79: return "yellow"
            default: return "orange"
            }
        }
        for s in rules.fortuneScore.min...rules.fortuneScore.max {
            XCTAssertEqual(fortuneColor(s, rules: rules), documentColor(s), "score \(s)")
        }
        XCTAssertEqual([rules.fortuneScore.min, rules.fortuneScore.max], [0, 100], "CHECK (fortune_score BETWEEN 0 AND 100)")
        XCTAssertNil(fortuneColor(101, rules: rules))
    }

    // MARK: Stand-in generator (§3.2)

    func testStandInRespectsEveryLimitForBothTiers() throws {
        let rules = try AuraTestSupport.rules()
        var v: [String] = []
        var counts: [SubscriptionTier: Set<Int>] = [:]
        for seed in UInt64(0)..<20 {
            let g = HoroscopeStandIn(rules: rules, seed: seed)
            for c in SituationCategory.allCases {
                for length in SubscriptionTier.allCases {
                    let out = g.generate(
                        userID: "f10a0000-0000-4000-8000-000000000001", date: PGDate("2026-01-01")!,
                        zodiac: .aries, mbti: .INTJ, category: c, length: length)
                    v += AuraConformance.readingViolations(out, length: length, rules: rules, label: "seed \(seed) \(c.rawValue) \(length.rawValue)")
                    counts[length, default: []].insert(HoroscopeStandIn.wordCount(out.content))
                }
            }
        }
        AuraTestSupport.assertNoViolations(v, "stand-in")
        XCTAssertGreaterThan(counts[.free]!.count, 5, "word counts vary within the range")
        let a = HoroscopeStandIn(rules: rules, seed: 3).generate(
            userID: "u", date: PGDate("2026-01-01")!, zodiac: .leo, mbti: .ENFP, category: .love, length: .free)
        let b = HoroscopeStandIn(rules: rules, seed: 3).generate(
            userID: "u", date: PGDate("2026-01-01")!, zodiac: .leo, mbti: .ENFP, category: .love, length: .free)
        XCTAssertEqual(a, b, "deterministic")
        XCTAssertTrue(a.content.contains("Leo") || a.content.contains("ENFP"))
    }

    func testReadingChecksRejectWrongOutputs() throws {
        let rules = try AuraTestSupport.rules()
        let good = HoroscopeStandIn(rules: rules).generate(userID: "u", date: PGDate("2026-01-01")!, zodiac: .leo, mbti: .ENFP, category: .love, length: .free)
        // A generator that ignores the tier gives premium readings of free length.
        AuraTestSupport.assertViolations(AuraConformance.readingViolations(good, length: .premium, rules: rules, label: "free text as premium"), "tier ignored")
        var bad = good
        bad.luckyNumbers[1] = bad.luckyNumbers[0]
        AuraTestSupport.assertViolations(AuraConformance.readingViolations(bad, length: .free, rules: rules, label: "repeat"), "repeated lucky number")
        bad = good
        bad.fortuneScore = 100
        AuraTestSupport.assertViolations(AuraConformance.readingViolations(bad, length: .free, rules: rules, label: "score"), "score outside 60…99")
    }

    // MARK: The rules file itself

    func testRulesFileErrorsNameFileAndPath() throws {
        let url = ContractsLocator.app(AuraApp.name).appendingPathComponent("rules.json")
        var json = try JSONValue.parse(Data(contentsOf: url))
        guard case .object(var o) = json, case .object(var m) = o["mbti"]! else { return XCTFail("shape") }
        m["tieBreak"] = "I"
        o["mbti"] = .object(m)
        json = .object(o)
        XCTAssertThrowsError(try SpecNode(value: json, file: "Contracts/aura/rules.json").decode(AuraRules.self)) {
            XCTAssertTrue("\($0)".hasPrefix("Contracts/aura/rules.json: $.mbti.tieBreak: unknown key 'tieBreak'"), "\($0)")
        }
        guard case .object(var z) = o["zodiac"]!, case .array(var signs) = z["signs"]!, case .object(var s0) = signs[0] else { return XCTFail("shape") }
        s0["from"] = "3-21"
        signs[0] = .object(s0); z["signs"] = .array(signs); o["zodiac"] = .object(z); o["mbti"] = (try JSONValue.parse(Data(contentsOf: url)))["mbti"]
        XCTAssertThrowsError(try SpecNode(value: .object(o), file: "Contracts/aura/rules.json").decode(AuraRules.self)) {
            XCTAssertEqual("\($0)", "Contracts/aura/rules.json: $.zodiac.signs[0].from: expected MM-DD, found '3-21'")
        }
    }

    /// §2.1 "position: Int // 1-4": every stack has one function per position; a stack of three
    /// fails naming the type, and so does a position range the stacks do not fill.
    func testFunctionPositionsHoldEveryStack() throws {
        let rules = try AuraTestSupport.rules()
        XCTAssertEqual(rules.functionPositions.closed, 1...4)
        XCTAssertEqual(try MBTIProfile(typeCode: "INTJ", rules: rules).cognitiveFunctions.map(\.position), [1, 2, 3, 4])
        let url = ContractsLocator.app(AuraApp.name).appendingPathComponent("rules.json")
        guard case .object(var o) = try JSONValue.parse(Data(contentsOf: url)), case .object(var m) = o["mbti"]!,
            case .object(var stacks) = m["cognitiveFunctions"]!, case .array(let intj) = stacks["INTJ"]!
        else { return XCTFail("shape") }
        stacks["INTJ"] = .array(Array(intj.prefix(3))); m["cognitiveFunctions"] = .object(stacks); o["mbti"] = .object(m)
        XCTAssertThrowsError(try SpecNode(value: .object(o), file: "Contracts/aura/rules.json").decode(AuraRules.self)) {
            XCTAssertEqual("\($0)", "Contracts/aura/rules.json: $.mbti.cognitiveFunctions.INTJ: INTJ lists 3 functions; positions 1-4 need 4")
        }
        guard case .object(var p) = m["functionPositions"]! else { return XCTFail("shape") }
        p["max"] = 5; m["functionPositions"] = .object(p); stacks["INTJ"] = .array(intj); m["cognitiveFunctions"] = .object(stacks); o["mbti"] = .object(m)
        XCTAssertThrowsError(try SpecNode(value: .object(o), file: "Contracts/aura/rules.json").decode(AuraRules.self)) {
            XCTAssertTrue("\($0)".contains("positions 1-5 need 5"), "\($0)")
        }
    }
}
