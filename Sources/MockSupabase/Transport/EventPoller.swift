import Foundation
#if canImport(Glibc)
    import Glibc
    import CEventPoll
#elseif canImport(Musl)
    import Musl
    import CEventPoll
#elseif canImport(Darwin)
    import Darwin
#endif

/// Readiness of many sockets for the loopback server's threads: epoll on Linux, kqueue on Darwin.
///
/// Socket registrations are one-shot: once an event for a socket is delivered to one waiting
/// thread, the socket is disarmed until `arm` is called for it again. A connection is therefore
/// served by at most one thread at a time, and a slow client holds no thread while it is silent.
/// The wake descriptor is level-triggered and never disarmed, so one byte written to it wakes
/// every waiting thread (used by `HTTPServer.stop()`).
///
/// Each registration carries a 64-bit token chosen by the caller (the server puts a generation
/// number beside the descriptor, so an event for a closed and reused descriptor is recognised as
/// stale).
final class EventPoller: @unchecked Sendable {
    struct Event {
        /// The token given at registration.
        var token: UInt64
        /// Bytes (or end of stream) can be read.
        var readable: Bool
        /// Bytes can be written.
        var writable: Bool
        /// The peer hung up or the socket has an error.
        var hangup: Bool
    }

    /// What an armed socket waits for.
    enum Interest { case read, write }

    private let fd: Int32

    /// A new epoll instance (Linux) or kqueue (Darwin).
    init() throws {
        #if canImport(Darwin)
            fd = kqueue()
        #else
            fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        #endif
        guard fd >= 0 else { throw HTTPServerError(operation: "epoll_create1/kqueue", code: errno, port: 0) }
    }

    /// Closes the poller; registered sockets are not closed.
    func close() { _ = systemClose(fd) }

    /// Adds a socket, armed once for `interest`.
    func add(_ socket: Int32, token: UInt64, interest: Interest) throws {
        guard control(socket, token: token, interest: interest, add: true) else {
            throw HTTPServerError(operation: "epoll_ctl/kevent add", code: errno, port: 0)
        }
    }

    /// Arms a registered socket once more. False when the socket is gone (closed by the peer's
    /// reset); the caller then closes it.
    @discardableResult
    func arm(_ socket: Int32, token: UInt64, interest: Interest) -> Bool {
        control(socket, token: token, interest: interest, add: false)
    }

    /// Adds the wake descriptor: level-triggered, never disarmed.
    func addWake(_ descriptor: Int32, token: UInt64) throws {
        #if canImport(Darwin)
            var change = Darwin.kevent(
                ident: UInt(descriptor), filter: Int16(truncatingIfNeeded: EVFILT_READ),
                flags: UInt16(truncatingIfNeeded: EV_ADD), fflags: 0, data: 0,
                udata: UnsafeMutableRawPointer(bitPattern: UInt(token)))
            let ok = EventPoller.sysKevent(fd, &change, 1, nil, 0, nil) == 0
        #else
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = token
            let ok = epoll_ctl(fd, EPOLL_CTL_ADD, descriptor, &event) == 0
        #endif
        guard ok else { throw HTTPServerError(operation: "epoll_ctl/kevent wake", code: errno, port: 0) }
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and fills `events`; returns how many.
    func wait(into events: inout [Event], capacity: Int, timeoutMilliseconds: Int32) -> Int {
        events.removeAll(keepingCapacity: true)
        #if canImport(Darwin)
            var raw = [Darwin.kevent](repeating: Darwin.kevent(), count: capacity)
            var timeout = timespec(tv_sec: Int(timeoutMilliseconds / 1000), tv_nsec: Int(timeoutMilliseconds % 1000) * 1_000_000)
            let n = withUnsafePointer(to: &timeout) { t in
                EventPoller.sysKevent(fd, nil, 0, &raw, Int32(capacity), timeoutMilliseconds < 0 ? nil : t)
            }
            guard n > 0 else { return 0 }
            for e in raw[0..<Int(n)] {
                let token = UInt64(UInt(bitPattern: e.udata))
                let eof = (e.flags & UInt16(truncatingIfNeeded: EV_EOF)) != 0
                let error = (e.flags & UInt16(truncatingIfNeeded: EV_ERROR)) != 0
                events.append(
                    Event(
                        token: token, readable: e.filter == Int16(truncatingIfNeeded: EVFILT_READ),
                        writable: e.filter == Int16(truncatingIfNeeded: EVFILT_WRITE), hangup: eof || error))
            }
            return events.count
        #else
            var raw = [epoll_event](repeating: epoll_event(), count: capacity)
            let n = epoll_wait(fd, &raw, Int32(capacity), timeoutMilliseconds)
            guard n > 0 else { return 0 }
            for e in raw[0..<Int(n)] {
                let hangup = e.events & (EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue) != 0
                events.append(
                    Event(
                        token: e.data.u64, readable: e.events & EPOLLIN.rawValue != 0,
                        writable: e.events & EPOLLOUT.rawValue != 0, hangup: hangup))
            }
            return events.count
        #endif
    }

    private func control(_ socket: Int32, token: UInt64, interest: Interest, add: Bool) -> Bool {
        #if canImport(Darwin)
            // EV_ONESHOT deletes the filter once it fires; EV_ADD adds or replaces it.
            let filter = interest == .read ? EVFILT_READ : EVFILT_WRITE
            var change = Darwin.kevent(
                ident: UInt(socket), filter: Int16(truncatingIfNeeded: filter),
                flags: UInt16(truncatingIfNeeded: EV_ADD | EV_ONESHOT), fflags: 0, data: 0,
                udata: UnsafeMutableRawPointer(bitPattern: UInt(token)))
            return EventPoller.sysKevent(fd, &change, 1, nil, 0, nil) == 0
        #else
            var event = epoll_event()
            event.events = (interest == .read ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : EPOLLOUT.rawValue) | EPOLLONESHOT.rawValue
            event.data.u64 = token
            return epoll_ctl(fd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, socket, &event) == 0
        #endif
    }

    #if canImport(Darwin)
        /// `kevent(2)`, named apart from the struct of the same name.
        private static let sysKevent:
            @convention(c) (
                Int32, UnsafePointer<Darwin.kevent>?, Int32, UnsafeMutablePointer<Darwin.kevent>?, Int32,
                UnsafePointer<timespec>?
            ) -> Int32 = Darwin.kevent
    #endif

    private func systemClose(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            return Darwin.close(descriptor)
        #elseif canImport(Musl)
            return Musl.close(descriptor)
        #else
            return Glibc.close(descriptor)
        #endif
    }
}

/// Gives freed memory back to the system after large request bodies (glibc keeps it otherwise).
func releaseFreedMemoryToSystem() {
    #if canImport(Glibc)
        _ = malloc_trim(0)
    #endif
}
