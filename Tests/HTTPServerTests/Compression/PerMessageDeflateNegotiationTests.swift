import HTTPServer
import XCTest

final class PerMessageDeflateNegotiationTests: XCTestCase {
    private func negotiate(_ offers: [String], _ configuration: PerMessageDeflateConfiguration = .init()) -> String? {
        PerMessageDeflateNegotiation.negotiate(offers: offers, configuration: configuration)?.response
    }

    func testNegotiationTable() {
        let table: [(offer: String, response: String?)] = [
            ("permessage-deflate", "permessage-deflate"),
            ("Permessage-Deflate", "permessage-deflate"),
            ("permessage-deflate; client_max_window_bits", "permessage-deflate"),
            ("permessage-deflate; client_max_window_bits=12", "permessage-deflate; client_max_window_bits=12"),
            ("permessage-deflate; client_max_window_bits=\"10\"", "permessage-deflate; client_max_window_bits=10"),
            ("permessage-deflate; server_max_window_bits=10", "permessage-deflate; server_max_window_bits=10"),
            ("permessage-deflate; server_max_window_bits=8", "permessage-deflate; server_max_window_bits=8"),
            ("permessage-deflate; server_no_context_takeover",
             "permessage-deflate; server_no_context_takeover"),
            ("permessage-deflate;client_no_context_takeover ; server_no_context_takeover",
             "permessage-deflate; server_no_context_takeover; client_no_context_takeover"),
            ("permessage-deflate; server_max_window_bits=15; client_max_window_bits=9; client_no_context_takeover",
             "permessage-deflate; client_no_context_takeover; server_max_window_bits=15; client_max_window_bits=9"),
            // Declined offers.
            ("permessage-deflate; server_max_window_bits", nil),
            ("permessage-deflate; server_max_window_bits=7", nil),
            ("permessage-deflate; server_max_window_bits=16", nil),
            ("permessage-deflate; server_max_window_bits=08", nil),
            ("permessage-deflate; server_max_window_bits=abc", nil),
            ("permessage-deflate; client_max_window_bits=0", nil),
            ("permessage-deflate; server_no_context_takeover=true", nil),
            ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", nil),
            ("permessage-deflate; client_max_window_bits; client_max_window_bits=10", nil),
            ("permessage-deflate; unknown_parameter", nil),
            ("permessage-deflate; client_max_window_bits=\"10", nil),
            ("x-webkit-deflate-frame", nil),
            ("", nil),
            // The first acceptable offer wins.
            ("permessage-deflate; server_max_window_bits=20, permessage-deflate; client_max_window_bits",
             "permessage-deflate"),
            ("foo, permessage-deflate; server_no_context_takeover, permessage-deflate",
             "permessage-deflate; server_no_context_takeover"),
        ]
        for (offer, response) in table {
            XCTAssertEqual(negotiate([offer]), response, offer)
        }
    }

    func testOffersAcrossSeveralHeaderFields() {
        XCTAssertEqual(negotiate(["x-webkit-deflate-frame", "permessage-deflate; bad", "permessage-deflate"]), "permessage-deflate")
    }

    func testParameters() throws {
        let result = try XCTUnwrap(PerMessageDeflateNegotiation.negotiate(
            offers: ["permessage-deflate; server_max_window_bits=9; client_max_window_bits=11; client_no_context_takeover"],
            configuration: .init()))
        XCTAssertEqual(result.parameters, PerMessageDeflateParameters(
            serverNoContextTakeover: false, clientNoContextTakeover: true, serverMaxWindowBits: 9, clientMaxWindowBits: 11))
    }

    func testServerConfiguration() {
        let configuration = PerMessageDeflateConfiguration(
            serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 12, clientMaxWindowBits: 10)
        XCTAssertEqual(negotiate(["permessage-deflate"], configuration),
                       "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12")
        XCTAssertEqual(negotiate(["permessage-deflate; client_max_window_bits"], configuration),
                       "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12; client_max_window_bits=10")
        XCTAssertEqual(negotiate(["permessage-deflate; server_max_window_bits=9; client_max_window_bits=14"], configuration),
                       "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=9; client_max_window_bits=10")
    }

    func testExtensionOfferParsing() {
        let offers = WebSocketExtensionOffer.parse(["foo; a=1; b=\"x,y\"", " bar ,, baz;c"])
        XCTAssertEqual(offers.map(\.name), ["foo", "bar", "baz"])
        XCTAssertTrue(offers[0].isMalformed, "x,y is not a token")
        XCTAssertEqual(offers[2].parameters, [.init(name: "c", value: nil)])
        XCTAssertFalse(offers[2].isMalformed)
    }
}
