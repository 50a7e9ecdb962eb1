import Foundation
import TestSupport
import Testing

/// JSON requests on the control socket, for programs (as mpv's JSON IPC): a command and its
/// arguments as JSON, answered with what it did as data and the request's id. The real daemon,
/// a raw socket client.
@Suite struct ControlSocketJSONTests {
    /// A reply line, as a dictionary: its fields vary with the request.
    static func object(_ line: String?) -> [String: Any] {
        line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
    }

    static func outcome(_ reply: [String: Any]) -> [String: Any] {
        (reply["outcomes"] as? [[String: Any]])?.first ?? [:]
    }

    @Test func aProgramPlaysSeeksSetsAndBookmarksInJSONAndReadsWhatHappenedAsData() throws {
        // Given a daemon on a library of the 12 s book Code, and a raw socket client
        let fixture = try ControlFixture("control-json", seconds: 90)
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let client = try RawSocketClient(path: try #require(fixture.socketPath()))
        func request(_ json: String) -> [String: Any] {
            client.send(line: json)
            return Self.object(client.readLine())
        }

        // When it plays the book by a named argument, with a number id
        let play = request(#"{"command":"play","book":"Code","id":1}"#)
        // Then the reply says it started that book, as data, with the id
        #expect(play["ok"] as? Bool == true && play["id"] as? Int == 1, "\(play)")
        #expect(Self.outcome(play)["kind"] as? String == "started" && Self.outcome(play)["bookId"] as? Int == 1, "\(play)")
        #expect(Self.outcome(play)["book"] as? String == "Code" && Self.outcome(play)["item"] as? Int == 1, "\(play)")

        // When it seeks with the issue's own form, a string id
        let seek = request(#"{"command":"seek","to":"0:42","id":"s1"}"#)
        #expect(seek["ok"] as? Bool == true && seek["id"] as? String == "s1", "\(seek)")
        #expect(Self.outcome(seek)["kind"] as? String == "moved", "\(seek)")
        #expect((Self.outcome(seek)["bookSeconds"] as? Double).map { abs($0 - 42) < 0.5 } == true, "\(seek)")

        // When it sets the speed with a number, and bookmarks with a note no command line could
        // hold unquoted (the words go to the grammar as they are)
        let speed = request(#"{"command":"speed","args":[1.5]}"#)
        #expect(Self.outcome(speed)["kind"] as? String == "settings" && Self.outcome(speed)["speed"] as? Double == 1.5, "\(speed)")
        #expect(speed["id"] == nil, "no id asked, none given: \(speed)")
        let note = #"a "quoted" note; not two commands"#
        let mark = request(#"{"command":"bookmark","note":"a \"quoted\" note; not two commands"}"#)
        #expect(Self.outcome(mark)["kind"] as? String == "bookmarked" && Self.outcome(mark)["note"] as? String == note, "\(mark)")
        // (with its number in the list, what `jump` takes, beside its library id)
        #expect(Self.outcome(mark)["bookmarkNumber"] as? String == "1" && Self.outcome(mark)["bookmark"] is Int, "\(mark)")

        // When it asks the status: the status object, whatever the form
        let status = request(#"{"command":"status","id":2}"#)
        let shown = status["status"] as? [String: Any]
        #expect(shown?["book"] as? String == "Code" && shown?["speed"] as? Double == 1.5 && shown?["state"] as? String == "playing", "\(status)")
        #expect(Self.outcome(status)["kind"] as? String == "status")

        // When it asks for the lists the REPL shows as lines: the chapters, the bookmarks, the
        // queue, and the defaults after setting one
        #expect(request(#"{"command":"chapter","args":["add","0:00","Opening"]}"#)["ok"] as? Bool == true)
        #expect(request(#"{"command":"chapter","args":["add","0:30","Middle"]}"#)["ok"] as? Bool == true)
        let chapters = Self.outcome(request(#"{"command":"chapters"}"#))
        let listed = chapters["chapters"] as? [[String: Any]]
        // Then each comes as data: the chapters numbered from 1 with their starts and lengths (the
        // two added)
        #expect(listed?.count == 2 && listed?.count == chapters["count"] as? Int, "\(chapters)")
        #expect(listed?.first?["number"] as? Int == 1 && listed?.first?["start"] as? Double == 0, "\(chapters)")
        #expect(listed?.first?["title"] as? String == "Opening" && listed?.first?["length"] as? Double == 30, "\(chapters)")
        #expect(listed?.last?["title"] as? String == "Middle" && listed?.last?["start"] as? Double == 30, "\(chapters)")
        #expect(listed?.last?["isUsers"] as? Bool == true, "\(chapters)")
        let marks = Self.outcome(request(#"{"command":"bookmarks"}"#))
        let made = (marks["bookmarks"] as? [[String: Any]])?.first { $0["kind"] as? String == "user" }
        #expect(made?["note"] as? String == note && made?["id"] as? Int == Self.outcome(mark)["bookmark"] as? Int, "\(marks)")
        #expect(made?["number"] as? String == "1", "\(marks)")
        let queue = Self.outcome(request(#"{"command":"queue"}"#))
        #expect(queue["kind"] as? String == "queue" && (queue["books"] as? [Any])?.isEmpty == true, "\(queue)")
        let set = Self.outcome(request(#"{"command":"set","args":["skip",20]}"#))
        #expect(set["kind"] as? String == "defaults" && set["setting"] as? String == "skip", "\(set)")
        #expect((set["defaults"] as? [String: Any])?["skipSeconds"] as? Double == 20, "\(set)")

        // Then what a program gets wrong is said in one line, with its id when it had one, and
        // the connection goes on
        let twoFields = request(#"{"command":"seek","to":"1:00","at":"2:00","id":3}"#)
        #expect(twoFields["ok"] as? Bool == false && twoFields["id"] as? Int == 3, "\(twoFields)")
        #expect((twoFields["errors"] as? [String])?.first?.contains("one argument field at most") == true, "\(twoFields)")
        let noCommand = request(#"{"cmd":"pause","id":4}"#)
        #expect((noCommand["errors"] as? [String])?.first?.contains("no \"command\"") == true && noCommand["id"] as? Int == 4, "\(noCommand)")
        let broken = request(#"{"command":"pause""#)
        #expect((broken["errors"] as? [String])?.first?.contains("not a JSON object") == true, "\(broken)")
        let unknown = request(#"{"command":"frobnicate"}"#)
        #expect(unknown["ok"] as? Bool == false && (unknown["errors"] as? [String])?.first?.contains("unknown command") == true, "\(unknown)")
        let pause = request(#"{"command":"pause"}"#)
        #expect(pause["ok"] as? Bool == true)
        #expect(try fixture.status().state == "paused")
        // and a plain command line still gets the reply it always had, with no JSON fields added
        client.send(line: "status")
        let line = Self.object(client.readLine())
        #expect(line["ok"] as? Bool == true && line["outcomes"] == nil && line["id"] == nil, "\(line)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
