import CZlib

/// A raw-DEFLATE decompressor that appends to a caller's buffer in bounded steps and stops
/// with 1009 the moment the output would pass a limit, so memory stays bounded whatever the
/// compression ratio of the input.
final class ZlibInflater {
    /// Output produced per `inflate` call; also the scratch buffer size.
    private static let stepSize = 16 * 1024
    private let stream: UnsafeMutablePointer<z_stream>
    private let scratch: UnsafeMutablePointer<UInt8>
    private let windowBits: Int32
    private var initialized = false
    /// Whether the current stream hit a final block (BFINAL); later input is ignored.
    private(set) var streamEnded = false

    /// A raw inflater for windows up to `2^windowBits` bytes (8...15); nil if zlib refuses.
    init?(windowBits: Int) {
        self.windowBits = Int32(min(max(windowBits, 8), 15))
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.stepSize)
        guard czlib_inflateInit2(stream, -self.windowBits) == Z_OK else { return nil }
        initialized = true
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        scratch.deallocate()
    }

    /// Forgets the sliding window: the next input starts a fresh stream.
    func reset() {
        inflateReset(stream)
        streamEnded = false
    }

    /// Starts a fresh stream after a final block while keeping the window (context takeover).
    func restartKeepingWindow() {
        guard streamEnded else { return }
        let window = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 15)
        defer { window.deallocate() }
        var length: UInt32 = 0
        let gotWindow = inflateGetDictionary(stream, window, &length) == Z_OK
        reset()
        if gotWindow, length > 0 { inflateSetDictionary(stream, window, length) }
    }

    /// Decompresses `input`, appending to `output`; throws `.messageTooBig` as soon as
    /// `output` would exceed `limit` bytes and `.invalidPayload` for corrupt data.
    func inflate(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int) throws(WebSocketError) {
        guard !streamEnded, let base = input.baseAddress, !input.isEmpty else { return }
        var offset = 0
        while offset < input.count, !streamEnded {
            let piece = min(input.count - offset, Int(Int32.max))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: UInt8.self))
            stream.pointee.avail_in = UInt32(piece)
            try drain(into: &output, limit: limit)
            offset += piece - Int(stream.pointee.avail_in)
            if stream.pointee.avail_in != 0, !streamEnded { break }
        }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
    }

    /// Runs inflate until the current input is consumed and no output is pending.
    private func drain(into output: inout [UInt8], limit: Int) throws(WebSocketError) {
        while true {
            stream.pointee.next_out = scratch
            stream.pointee.avail_out = UInt32(Self.stepSize)
            let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
            let produced = Self.stepSize - Int(stream.pointee.avail_out)
            if produced > 0 {
                guard produced <= limit - output.count else {
                    throw .messageTooBig("decompressed message exceeds \(limit) bytes")
                }
                BoundedGrowth.reserve(&output, adding: produced, limit: limit)
                output.append(contentsOf: UnsafeBufferPointer(start: scratch, count: produced))
            }
            switch status {
            case Z_OK:
                if stream.pointee.avail_in == 0, stream.pointee.avail_out != 0 { return }
            case Z_STREAM_END:
                streamEnded = true
                return
            case Z_BUF_ERROR:
                return // no progress possible: input used up
            default:
                throw .invalidPayload("invalid compressed data")
            }
        }
    }
}

/// Array growth that never reserves past a limit (geometric below it).
enum BoundedGrowth {
    static func reserve(_ array: inout [UInt8], adding extra: Int, limit: Int) {
        let needed = array.count + extra
        guard needed > array.capacity else { return }
        array.reserveCapacity(min(max(needed, array.capacity * 2), max(limit, needed)))
    }
}
