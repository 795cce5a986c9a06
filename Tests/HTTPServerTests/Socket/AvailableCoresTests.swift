@testable import HTTPServer
import XCTest

final class AvailableCoresTests: XCTestCase {
    func testAffinityListsAreCounted() {
        XCTAssertEqual(AvailableCores.allowedCPUs(status: "Name:\tx\nCpus_allowed_list:\t0-3\nMems_allowed:\t1\n"), 4)
        XCTAssertEqual(AvailableCores.allowedCPUs(status: "Cpus_allowed_list:\t1"), 1)
        XCTAssertEqual(AvailableCores.allowedCPUs(status: "Cpus_allowed_list:\t0-1,4,6-7\n"), 5)
    }

    func testMalformedOrMissingAffinityListsAreIgnored() {
        XCTAssertNil(AvailableCores.allowedCPUs(status: "Name:\tx\n"))
        XCTAssertNil(AvailableCores.allowedCPUs(status: "Cpus_allowed_list:\t3-1"))
        XCTAssertNil(AvailableCores.allowedCPUs(status: "Cpus_allowed_list:\tzero"))
        XCTAssertNil(AvailableCores.allowedCPUs(status: "Cpus_allowed_list:\t"))
    }

    func testCgroupQuotasRoundUpToWholeCores() {
        XCTAssertEqual(AvailableCores.quotaCores(cpuMax: "150000 100000\n"), 2)
        XCTAssertEqual(AvailableCores.quotaCores(cpuMax: "100000 100000"), 1)
        XCTAssertEqual(AvailableCores.quotaCores(cpuMax: "50000 100000"), 1)
        XCTAssertNil(AvailableCores.quotaCores(cpuMax: "max 100000"))
        XCTAssertNil(AvailableCores.quotaCores(quota: -1, period: 100_000))
    }

    func testTheCountIsWithinTheMachine() {
        XCTAssertGreaterThanOrEqual(AvailableCores.count, 1)
        XCTAssertLessThanOrEqual(AvailableCores.count, ProcessInfo.processInfo.activeProcessorCount)
    }
}
