import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file the server writes from its start, a recording or a trace, readable by its owner only.
///
/// A regular file already at the path (the last run's recording, say) is replaced by a new one
/// rather than truncated: truncating hundreds of megabytes frees their pages there and then, in
/// the way of the session's start, and ext4 writes out a file truncated and written again when it
/// closes, in the way of its end. The old file's pages are freed on a thread that runs only when
/// a core is idle. A path that is a link, a file with other names, or anything not a regular file
/// is truncated and written in place, as asked.
package enum OutputFile {
    /// A descriptor to write the file at `path` from its start, or nil with `errno` set.
    ///
    /// Opened without waiting: a FIFO no process reads fails at once (ENXIO) instead of holding
    /// the process before it can take a signal. Writes then block as usual.
    package static func create(atPath path: String) -> Int32? {
        if let replaced = replacingRegularFile(at: path) { return replaced }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return nil }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let error = errno
            close(fd)
            errno = error
            return nil
        }
        return fd
    }

    /// Why `create` failed, for `errno` as it left it.
    package static func reason(for error: Int32) -> String {
        error == ENXIO ? "it is a FIFO that no process has open for reading" : String(cString: strerror(error))
    }

    /// A new file in place of the regular file with content at `path`, which is unlinked, its
    /// pages freed in the background; nil when there is none, or it cannot be replaced.
    private static func replacingRegularFile(at path: String) -> Int32? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1, status.st_size > 0 else {
            return nil
        }
        // Held open so that unlinking only takes the name; the pages go when this closes.
        let old = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard old >= 0 else { return nil }
        guard unlink(path) == 0 else {
            close(old)
            return nil
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        let openError = errno
        closeWhenIdle(old)
        errno = openError
        return fd >= 0 ? fd : nil
    }

    /// Closes `fd` on a thread of its own that the kernel runs only on an idle core.
    private static func closeWhenIdle(_ fd: Int32) {
        let thread = Thread {
            var parameters = sched_param()
            _ = sched_setscheduler(0, schedulerIdle, &parameters)
            close(fd)
        }
        thread.name = "signup-rpc.free-old-file"
        thread.start()
    }

    /// Linux's `SCHED_IDLE`, which Glibc declares for GNU sources only.
    private static let schedulerIdle: Int32 = 5
}
