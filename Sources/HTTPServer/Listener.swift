#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the listening socket handed to libmicrohttpd, so that failures are reported precisely.
enum Listener {
    /// A non-blocking TCP socket bound to `host`:`port` and listening.
    static func open(host: String, port: Int, backlog: Int) throws(HTTPServerError) -> Int32 {
        guard (0...65535).contains(port) else {
            throw HTTPServerError(kind: .invalidAddress, message: "port \(port) is out of range")
        }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        defer { freeaddrinfo(list) }
        guard status == 0, let info = list?.pointee, let address = info.ai_addr else {
            throw HTTPServerError(kind: .invalidAddress, message: "cannot listen on \(host): address not found")
        }

        let socketFD = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else {
            throw HTTPServerError(kind: .socketFailed, message: "socket() failed: \(describe(errno))")
        }
        var yes: Int32 = 1
        _ = setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if bind(socketFD, address, info.ai_addrlen) != 0 {
            let error = errno
            close(socketFD)
            if error == EADDRINUSE {
                throw HTTPServerError(kind: .addressInUse, message: "address \(host):\(port) is already in use")
            }
            throw HTTPServerError(kind: .socketFailed, message: "cannot bind \(host):\(port): \(describe(error))")
        }
        if listen(socketFD, Int32(clamping: max(1, backlog))) != 0 {
            let error = errno
            close(socketFD)
            if error == EADDRINUSE {
                throw HTTPServerError(kind: .addressInUse, message: "address \(host):\(port) is already in use")
            }
            throw HTTPServerError(kind: .socketFailed, message: "cannot listen on \(host):\(port): \(describe(error))")
        }
        _ = fcntl(socketFD, F_SETFL, fcntl(socketFD, F_GETFL) | O_NONBLOCK)
        return socketFD
    }

    /// The port a socket is bound to, from `getsockname`.
    static func localPort(of socketFD: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        guard status == 0 else { return 0 }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
        default:
            return 0
        }
    }

    /// Makes the kernel refuse new connections on a listening socket without closing it.
    static func refuseConnections(on socketFD: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(socketFD, Int32(SHUT_RDWR))
        #else
        _ = Darwin.shutdown(socketFD, SHUT_RDWR)
        #endif
    }

    private static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
