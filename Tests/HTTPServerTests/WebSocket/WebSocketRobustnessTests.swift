import HTTPServer
import XCTest

/// Arbitrary bytes must never crash the reader: they produce messages or a WebSocketError.
final class WebSocketRobustnessTests: XCTestCase {
    /// A small deterministic PRNG (SplitMix64).
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func testRandomAndMutatedInputsNeverCrash() throws {
        var rng = SplitMix(state: 42)
        let deflater = try XCTUnwrap(PerMessageDeflate(parameters: .init()))
        let seeds: [[UInt8]] = [
            WSTest.client(text: "Hello, κόσμε"),
            WSTest.client(.binary, Array(repeating: 7, count: 300)),
            WSTest.client(text: "frag", fin: false) + WSTest.client(.ping, [1]) + WSTest.client(.continuation, [0x61]),
            WSTest.client(.text, deflater.compress(Array(String(repeating: "abc", count: 100).utf8)), rsv1: true),
            WSTest.client(.close, [0x03, 0xE8, 0x61]),
        ]
        for round in 0 ..< 3000 {
            var bytes: [UInt8]
            if round % 3 == 0 {
                bytes = (0 ..< Int.random(in: 0 ... 64, using: &rng)).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            } else {
                bytes = seeds[round % seeds.count] + seeds[(round / 5) % seeds.count]
                for _ in 0 ... Int.random(in: 0 ... 3, using: &rng) {
                    let index = Int.random(in: 0 ..< bytes.count, using: &rng)
                    bytes[index] ^= UInt8.random(in: 1 ... 255, using: &rng)
                }
            }
            let chunk = Int.random(in: 1 ... 16, using: &rng)
            let deflate = round % 2 == 0 ? PerMessageDeflate(parameters: .init()) : nil
            let result = WSTest.read(bytes, chunk: chunk, maxMessageSize: 4096, deflate: deflate)
            if let error = result.error {
                XCTAssertTrue([1002, 1007, 1009].contains(error.closeCode.rawValue))
            }
        }
    }
}
