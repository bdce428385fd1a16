import Foundation
import Testing
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// How `--record` and `--trace` open their file (`OutputFile`): a regular file there is replaced by
/// a new one, anything else is written in place.
@Suite struct OutputFileTests {
    @Test func aNewFileIsCreatedReadableByItsOwnerOnly() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("new.jsonl")
        try write("fresh", toDescriptorFor: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "fresh")
        #expect(try permissions(of: path) == 0o600)
    }

    @Test func aRegularFileIsReplacedByANewOneHoldingOnlyWhatIsWritten() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("last-run.jsonl")
        try String(repeating: "an older, longer recording\n", count: 1000).write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let oldInode = try inode(of: path)
        try write("new", toDescriptorFor: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try inode(of: path) != oldInode)
        #expect(try permissions(of: path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["last-run.jsonl"])
    }

    @Test func aLinkIsWrittenThroughAndStaysALink() throws {
        let folder = try TemporaryDirectory()
        let target = folder.path("target.jsonl")
        let link = folder.path("link.jsonl")
        try "old content".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try write("new", toDescriptorFor: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
    }

    @Test func aFileWithAnotherNameIsTruncatedInPlaceSoBothNamesSeeTheNewContent() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("recording.jsonl")
        let other = folder.path("other-name.jsonl")
        try "old content".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(atPath: path, toPath: other)
        try write("new", toDescriptorFor: path)
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "new")
        #expect(try inode(of: path) == inode(of: other))
    }

    @Test func aPathInAMissingFolderIsRefusedWithItsReason() throws {
        let folder = try TemporaryDirectory()
        #expect(OutputFile.create(atPath: folder.path("missing/recording.jsonl")) == nil)
        #expect(errno == ENOENT)
    }

    @Test func aFIFONoProcessReadsIsRefusedAtOnceAndOneThatIsReadIsWrittenWithWaiting() throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(OutputFile.create(atPath: fifo) == nil)
        #expect(errno == ENXIO)
        #expect(OutputFile.reason(for: ENXIO) == "it is a FIFO that no process has open for reading")
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let fd = try #require(OutputFile.create(atPath: fifo))
        defer { close(fd) }
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK == 0, "writes wait as usual")
        #expect(Array("line\n".utf8).withUnsafeBytes { writeAll($0, to: fd) })
        var bytes = [UInt8](repeating: 0, count: 16)
        #expect(read(reader, &bytes, bytes.count) == 5)
        #expect(String(decoding: bytes.prefix(5), as: UTF8.self) == "line\n")
    }

    @Test func aRecordingToAFIFONoProcessReadsIsExit73AtOnce() throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let child = try InteractiveProcess(["--record", fifo])
        // A generous watchdog, so that a server waiting on the FIFO fails the test rather than hangs it.
        #expect(child.wait(atMost: 60) == 73)
        #expect(child.errorOutput() == "signup-rpc: cannot create the recording '\(fifo)': it is a FIFO that no process has open for reading\n")
    }

    private func write(_ text: String, toDescriptorFor path: String) throws {
        let fd = try #require(OutputFile.create(atPath: path))
        defer { close(fd) }
        #expect(Array(text.utf8).withUnsafeBytes { writeAll($0, to: fd) })
    }

    private func inode(of path: String) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }

    private func permissions(of path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }
}
