import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// `signup-marbles`: the diagram of a fixture holds its events as marbles, in their lanes, at
/// their times; the SVG places them by time.
@Suite struct MarbleDiagramTests {
    private static func staleCheck() throws -> MarbleDiagram {
        let input = try Data(contentsOf: Subprocess.packageRoot.appendingPathComponent("Examples/stale-check.jsonl"))
        let run = try FixtureRun(input: Array(input), flags: [], recording: true)
        return MarbleDiagram(try Recording.read(run.recording), secretFields: ["password", "repeatedPassword"])
    }

    @Test func theStaleCheckFixtureDrawsItsEventsInTheirLanes() throws {
        let diagram = try Self.staleCheck()
        typealias Marble = MarbleDiagram.Marble
        #expect(diagram.from == 0 && diagram.to == 1400)
        #expect(diagram.lanes.map(\.title) == [
            "default · username", "default · username result", "default · password", "default · password result",
            "default · repeatedPassword", "default · repeatedPassword result", "default · submit enabled", "backend",
        ])
        #expect(diagram.lanes[0].marbles == [
            Marble(time: 0, label: "alice", tone: .input), Marble(time: 400, label: "alicia", tone: .input),
            Marble(time: 1000, label: "root", tone: .input), Marble(time: 1400, label: "∅", tone: .input),
        ])
        #expect(diagram.lanes[1].marbles == [
            Marble(time: 0, label: "empty", tone: .empty), Marble(time: 0, label: "checking", tone: .validating),
            Marble(time: 900, label: "available", tone: .ok), Marble(time: 1000, label: "checking", tone: .validating),
            Marble(time: 1400, label: "empty", tone: .empty),
        ])
        #expect(diagram.lanes[3].marbles == [Marble(time: 0, label: "empty", tone: .empty)])
        #expect(diagram.lanes[6].spans.isEmpty)
        #expect(diagram.lanes[7].bars == [
            .init(start: 300, end: 400, label: "availability alice", ending: .cancelled, answer: "stale: cancelled"),
            .init(start: 700, end: 900, label: "availability alicia", ending: .answered, answer: "available"),
            .init(start: 1300, end: 1400, label: "availability root", ending: .cancelled, answer: "stale: cancelled"),
        ])
    }

    @Test func theSVGPlacesMarblesAndBarsByTime() throws {
        let diagram = try Self.staleCheck()
        let svg = MarbleSVG(diagram: diagram, title: "stale-check").render()
        // 960 px for 1400 ms after a 200 px title column: 900 ms is at 200 + 900 × 960 / 1400 = 817.1.
        #expect(svg.contains(##"<circle class="marble ok" cx="817.1" cy="122" r="6" fill="#2e9d57""##))
        #expect(svg.contains(#"<circle class="marble input" cx="474.3" cy="78" r="6""#))
        #expect(svg.contains(#"<rect class="call answered" x="680" y="#))
        #expect(svg.components(separatedBy: #"<line class="struck""#).count - 1 == 2)
        #expect(svg.components(separatedBy: "<circle class=\"marble").count - 1 == 11)
        // Well-formed XML, by a real XML parser (libxml2 behind Foundation's).
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    @Test func aWindowKeepsWhatFallsWithinIt() throws {
        let input = try Data(contentsOf: Subprocess.packageRoot.appendingPathComponent("Examples/stale-check.jsonl"))
        let run = try FixtureRun(input: Array(input), flags: [], recording: true)
        let diagram = MarbleDiagram(try Recording.read(run.recording), from: 800, to: 1200, secretFields: [])
        #expect(diagram.lanes[0].marbles.map(\.time) == [1000])
        #expect(diagram.lanes[1].marbles.map(\.time) == [900, 1000])
        #expect(diagram.lanes[7].bars.map(\.label) == ["availability alicia"])
    }

    @Test func secretValuesAreDrawnAsDots() throws {
        let input = Array(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"password","value":"hunter22","at":0}}"#.utf8) + [0x0A]
        let run = try FixtureRun(input: input, flags: [], recording: true)
        let diagram = MarbleDiagram(try Recording.read(run.recording), secretFields: ["password", "repeatedPassword"])
        let lane = try #require(diagram.lanes.first { $0.title == "default · password" })
        #expect(lane.marbles.map(\.label) == ["••••••••"])
    }

    /// Edits are read through the message types, as the server reads them: one it refuses (a
    /// misspelt param) is not drawn as typed.
    @Test func anEditTheServerRefusesIsNotDrawn() throws {
        let input = Array((#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"ann","at":0}}"# + "\n"
            + #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"bob","feild":"x","at":10}}"# + "\n").utf8)
        let run = try FixtureRun(input: input, flags: [], recording: true)
        let diagram = MarbleDiagram(try Recording.read(run.recording), secretFields: [])
        let lane = try #require(diagram.lanes.first { $0.title == "default · username" })
        #expect(lane.marbles.map(\.label) == ["ann"])
    }
}

extension MarbleDiagramTests {
    /// The README's picture is what signup-marbles draws for the fixture today.
    @Test func theReadmePictureIsCurrent() throws {
        let root = Subprocess.packageRoot
        let svg = try MarbleCommand.render(file: root.appendingPathComponent("Examples/stale-check.jsonl").path, from: nil, to: nil)
        let committed = try String(contentsOf: root.appendingPathComponent("docs/marbles/stale-check.svg"), encoding: .utf8)
        #expect(svg == committed, "regenerate with: swift run signup-marbles Examples/stale-check.jsonl -o docs/marbles/stale-check.svg")
    }
}
