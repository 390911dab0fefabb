import Testing

@testable import StoreServer

/// `--trust-proxy` ranges and the client they name (docs/BEHAVIOUR.md §15.2).
@Suite struct TrustedProxiesTests {
    @Test func rangesAreCIDRsOrBareAddresses() throws {
        let trusted = try #require(TrustedProxies(parsing: "10.0.0.0/8, 127.0.0.1 ,fd00::/8,::1"))
        #expect(trusted.contains("10.200.3.4"))
        #expect(!trusted.contains("11.0.0.1"))
        #expect(trusted.contains("127.0.0.1"))
        #expect(!trusted.contains("127.0.0.2"))
        #expect(trusted.contains("fd12::1"))
        #expect(trusted.contains("::1"))
        #expect(trusted.contains("::ffff:10.1.1.1"), "an IPv4-mapped address is its IPv4 address")
        #expect(!trusted.contains("not an address"))
        for bad in ["", "10.0.0.0/33", "10.0.0.0/", "10/8", "::1/129", "host.example", "10.0.0.0/8,", "1.2.3.4/+8"] {
            #expect(TrustedProxies(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func theClientIsTheFirstUntrustedHopFromTheRight() throws {
        let trusted = try #require(TrustedProxies(parsing: "10.0.0.0/8"))
        #expect(trusted.client(peer: "10.0.0.1", forwardedFor: "203.0.113.7") == "203.0.113.7")
        // A client may send its own X-Forwarded-For: only what the trusted proxies appended counts.
        #expect(trusted.client(peer: "10.0.0.1", forwardedFor: "1.1.1.1, 203.0.113.7, 10.0.0.9") == "203.0.113.7")
        #expect(trusted.client(peer: "192.0.2.1", forwardedFor: "203.0.113.7") == nil, "an untrusted peer")
        #expect(trusted.client(peer: "10.0.0.1", forwardedFor: "10.0.0.2") == nil, "only proxies")
        #expect(trusted.client(peer: "10.0.0.1", forwardedFor: "junk, 10.0.0.2") == nil)
    }
}
