@testable import HTTPServer
import XCTest

final class SHA1Tests: XCTestCase {
    private func hex(_ digest: [UInt8]) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    func testFIPS180Vectors() {
        XCTAssertEqual(hex(SHA1.hash(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.hash([UInt8]())), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(
            hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(
            hex(SHA1.hash(Array(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8))),
            "a49b2446a02c645bf419f995b67091253a04a259")
    }

    func testMillionAs() {
        var sha = SHA1()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0 ..< 1000 { sha.update(chunk) }
        XCTAssertEqual(hex(sha.finalize()), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testIncrementalEqualsOneShot() {
        let data = (0 ..< 300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 299] {
            var sha = SHA1()
            sha.update(data[..<split])
            sha.update(data[split...])
            XCTAssertEqual(sha.finalize(), SHA1.hash(data), "split at \(split)")
        }
    }
}
