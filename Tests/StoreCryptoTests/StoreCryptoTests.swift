import StoreCrypto
import Testing

@Suite struct PasswordHasherTests {
    let hasher = PasswordHasher.minimal

    @Test func hashesAreArgon2idSaltedAndVerifiable() throws {
        let first = try hasher.hash("pro-demo-password")
        let second = try hasher.hash("pro-demo-password")
        #expect(first.hasPrefix("$argon2id$"))
        #expect(first != second)  // a fresh salt each time
        #expect(!first.contains("pro-demo-password"))
        #expect(hasher.verify("pro-demo-password", against: first))
        #expect(hasher.verify("pro-demo-password", against: second))
        #expect(!hasher.verify("pro-demo-passworD", against: first))
        #expect(!hasher.verify("", against: first))
    }

    @Test func theInteractiveCostIsUsedForTheStore() throws {
        let hash = try PasswordHasher.interactive.hash("free-demo-password")
        #expect(hash.contains("m=65536"))
        #expect(PasswordHasher.interactive.verify("free-demo-password", against: hash))
        #expect(PasswordHasher.interactive.needsRehash(try hasher.hash("x")))
        #expect(!PasswordHasher.interactive.needsRehash(hash))
    }

    @Test func malformedHashesAndHugePasswordsNeverMatch() throws {
        #expect(!hasher.verify("a", against: ""))
        #expect(!hasher.verify("a", against: "$argon2id$garbage"))
        #expect(!hasher.verify("a", against: String(repeating: "x", count: 10_000)))
        let huge = String(repeating: "p", count: PasswordHasher.maximumPasswordBytes + 1)
        #expect(throws: CryptoError.passwordTooLong) { try hasher.hash(huge) }
        #expect(!hasher.verify(huge, against: try hasher.hash("p")))
    }

    @Test func unicodePasswordsWork() throws {
        let hash = try hasher.hash("pässwörd 🔑")
        #expect(hasher.verify("pässwörd 🔑", against: hash))
        #expect(!hasher.verify("passwort 🔑", against: hash))
    }

    @Test func offThePoolTheAnswersAreTheSame() async throws {
        let hash = try await hasher.hashOffThePool("pro-demo-password")
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(hasher.verify("pro-demo-password", against: hash))
        #expect(await hasher.verifyOffThePool("pro-demo-password", against: hash))
        #expect(await !hasher.verifyOffThePool("pro-demo-passworD", against: hash))
        #expect(await !hasher.verifyOffThePool("a", against: "$argon2id$garbage"))
        let huge = String(repeating: "p", count: PasswordHasher.maximumPasswordBytes + 1)
        await #expect(throws: CryptoError.passwordTooLong) { try await hasher.hashOffThePool(huge) }
    }
}

@Suite struct SecretTokenTests {
    @Test func tokensCarry256RandomBitsInURLSafeText() {
        let tokens = (0..<1_000).map { _ in SecretToken.generate() }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.text.utf8.count == 43)
            #expect(SecretToken(token.text) == token)
        }
    }

    @Test func onlyTheHashIsKeptAndItIsSHA256() {
        #expect(
            SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let token = SecretToken.generate()
        #expect(token.hash.count == 32)
        #expect(token.hash == SHA256.digest(Array(token.text.utf8)))
    }

    @Test(arguments: ["", "short", String(repeating: "a", count: 44), String(repeating: "+", count: 43), "Bearer x"])
    func malformedTokensAreRefusedEarly(text: String) {
        #expect(SecretToken(text) == nil)
    }
}
