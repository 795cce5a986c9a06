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

    /// However a stream of complete frames is cut into reads, every message comes out as soon as
    /// the read that completes it has been appended: none waits for later bytes (a message held
    /// back until the client's next frame would look like a stalled session).
    func testEveryCompleteMessageComesOutOnTheReadThatCompletesIt() throws {
        var rng = SplitMix(state: 7)
        for round in 0 ..< 400 {
            var stream: [UInt8] = []
            var ends: [Int] = []  // where each message's last frame ends in the stream
            var expected: [String] = []
            for index in 0 ..< Int.random(in: 1 ... 12, using: &rng) {
                let text = String(repeating: "k", count: Int.random(in: 0 ... (index % 4 == 0 ? 300 : 40), using: &rng)) + "\(round).\(index)"
                if Bool.random(using: &rng) {
                    stream += WSTest.client(text: text)
                } else {  // fragmented, with a ping in between
                    let bytes = Array(text.utf8)
                    let cut = bytes.count / 2
                    stream += WSTest.client(.text, Array(bytes[..<cut]), fin: false) + WSTest.client(.ping, [1])
                        + WSTest.client(.continuation, Array(bytes[cut...]))
                }
                ends.append(stream.count)
                expected.append(text)
            }
            var reader = WebSocketReader()
            var received: [String] = []
            var offset = 0
            while offset < stream.count {
                let length = min(stream.count - offset, round % 5 == 0 ? 1 : Int.random(in: 1 ... 200, using: &rng))
                reader.append(Array(stream[offset ..< offset + length]))
                offset += length
                while let message = try reader.nextMessage() {
                    if case .text(let text) = message { received.append(text) }
                }
                let complete = ends.filter { $0 <= offset }.count
                XCTAssertEqual(received.count, complete, "round \(round): after \(offset) of \(stream.count) bytes")
                if received.count != complete { return }
            }
            XCTAssertEqual(received, expected, "round \(round)")
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
