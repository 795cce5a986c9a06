// The GitHub user cache (`ResponseCache<GithubUser>`, O(1) LRU) at a large capacity: filling it,
// gets of random present keys, evicting puts once it is full, and resident memory per entry;
// then the same evicting put on the previous design (a dictionary whose eviction scanned every
// entry for the least recently used one), timed over fewer operations because each is O(n).
// Release builds only:
//
//     cd Benchmarks && swift run -c release CacheBench [entries]
import Foundation
import GithubProxy

let entries = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000_000

/// A user shaped like GitHub's answers (login ~10 characters, a name, two URLs).
func user(_ index: Int) -> GithubUser {
    GithubUser(
        login: "user\(index)", id: index, name: "User Number \(index)", publicRepos: index % 300,
        avatarURL: "https://avatars.githubusercontent.com/u/\(index)?v=4", htmlURL: "https://github.com/user\(index)"
    )
}

func residentKB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func report(_ name: String, _ operations: Int, _ elapsed: Double) {
    print(String(format: "%-44@ %10d ops  %8.3f s  %8.2f µs/op", name as NSString, operations, elapsed, elapsed / Double(operations) * 1e6))
}

// Keys and users made up front, so the timings and the memory delta are the cache's own.
let users = (0..<(entries * 2)).map(user)
let keys = users.map(\.login)
let directives = CacheDirectives(maxAge: 60)
let etag = #"W/"0123456789abcdef0123456789abcdef""#
var rng = SystemRandomNumberGenerator()
let probes = (0..<1_000_000).map { _ in keys[Int.random(in: 0..<entries, using: &rng)] }

let before = residentKB()
let cache = ResponseCache<GithubUser>(
    configuration: .init(capacity: entries, maxBytes: .max, maxFreshness: .seconds(60), notFoundTTL: .seconds(60), staleIfError: .seconds(86_400)),
    size: GithubUser.estimatedBytes
)
report("fill (put into a growing cache)", entries, seconds {
    for index in 0..<entries { cache.store(users[index], etag: etag, directives: directives, for: keys[index]) }
})
let after = residentKB()
print(String(format: "resident memory: %d KB before, %d KB after %d entries: %.0f bytes per entry (estimate counted: %d bytes per entry)",
             before, after, cache.count, Double((after - before) * 1024) / Double(cache.count), cache.bytes / cache.count))

var found = 0
report("get (random present key)", probes.count, seconds {
    for key in probes where cache.fresh(for: key) != nil { found += 1 }
})
precondition(found == probes.count, "every probe is present")
report("evicting put (full cache, new key)", entries, seconds {
    for index in entries..<(entries * 2) { cache.store(users[index], etag: etag, directives: directives, for: keys[index]) }
})
precondition(cache.count == entries)

/// The cache before this change: a dictionary, and eviction by scanning for the oldest use.
final class ScanningCache {
    struct Entry {
        let etag: String
        let user: GithubUser
        var lastUsed: UInt64
    }

    let capacity: Int
    var entries: [String: Entry] = [:]
    var tick: UInt64 = 0

    init(capacity: Int) { self.capacity = capacity }

    func store(_ user: GithubUser, etag: String, for key: String) {
        tick += 1
        if entries[key] == nil, entries.count >= capacity,
           let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            entries[oldest] = nil
        }
        entries[key] = Entry(etag: etag, user: user, lastUsed: tick)
    }
}

let scanning = ScanningCache(capacity: entries)
for index in 0..<entries { scanning.store(users[index], etag: etag, for: keys[index]) }
let scanningPuts = 20
report("previous design: evicting put (scan)", scanningPuts, seconds {
    for index in entries..<(entries + scanningPuts) { scanning.store(users[index], etag: etag, for: keys[index]) }
})
