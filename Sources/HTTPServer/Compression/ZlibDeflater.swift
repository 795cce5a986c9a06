import CZlib

/// A raw-DEFLATE compressor that compresses whole messages with a sync flush, the framing
/// permessage-deflate uses (RFC 7692 section 7.2.1).
final class ZlibDeflater {
    private static let stepSize = 16 * 1024
    private let stream: UnsafeMutablePointer<z_stream>
    private let scratch: UnsafeMutablePointer<UInt8>
    private var initialized = false

    /// A raw deflater with a window of `2^windowBits` bytes. zlib refuses 8 for raw streams,
    /// so 8 becomes 9 (zlib would round it up anyway).
    init?(windowBits: Int, level: Int32 = Z_DEFAULT_COMPRESSION, memoryLevel: Int32 = 8) {
        let bits = Int32(min(max(windowBits, 9), 15))
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.stepSize)
        let level = min(max(level, -1), 9)
        let memoryLevel = min(max(memoryLevel, 1), 9)
        guard czlib_deflateInit2(stream, level, Z_DEFLATED, -bits, memoryLevel, Z_DEFAULT_STRATEGY) == Z_OK else {
            return nil
        }
        initialized = true
    }

    deinit {
        if initialized { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        scratch.deallocate()
    }

    /// Forgets the sliding window (no context takeover).
    func reset() { deflateReset(stream) }

    /// Compresses one message and appends it to `output` without the trailing
    /// `00 00 ff ff` of the sync flush.
    func compressMessage(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        let start = output.count
        var offset = 0
        repeat {
            let piece = min(input.count - offset, Int(Int32.max))
            stream.pointee.next_in = input.baseAddress.map {
                UnsafeMutablePointer(mutating: ($0 + offset).assumingMemoryBound(to: UInt8.self))
            }
            stream.pointee.avail_in = UInt32(piece)
            let last = offset + piece == input.count
            run(flush: last ? Z_SYNC_FLUSH : Z_NO_FLUSH, into: &output)
            offset += piece
        } while offset < input.count
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        if output.count - start >= 4, output.suffix(4).elementsEqual([0x00, 0x00, 0xFF, 0xFF]) {
            output.removeLast(4)
        } else if output.count == start {
            // An empty message right after another sync flush: zlib has nothing to flush and
            // emits nothing, but the receiver will append `00 00 ff ff`, which alone would open
            // a stored block of 0xff00 bytes and swallow the next message. `00` makes it a
            // complete empty stored block (RFC 7692 section 7.2.3.6).
            output.append(0x00)
        }
    }

    private func run(flush: Int32, into output: inout [UInt8]) {
        while true {
            stream.pointee.next_out = scratch
            stream.pointee.avail_out = UInt32(Self.stepSize)
            let status = deflate(stream, flush)
            let produced = Self.stepSize - Int(stream.pointee.avail_out)
            if produced > 0 { output.append(contentsOf: UnsafeBufferPointer(start: scratch, count: produced)) }
            if status != Z_OK || stream.pointee.avail_out != 0 { return }
        }
    }
}
