import Foundation
import HTTPServer
import XCTest

@testable import ServiceApp

/// `/asyncapi.json` is generated from the pipeline registry: every channel, operation and
/// message reference resolves, and each pipeline channel declares the `?trace=` values the
/// service honours.
final class AsyncAPIDocumentTests: XCTestCase {
    func testEveryPipelineHasAChannelAndEveryReferenceResolves() throws {
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(AsyncAPIDocument.json.utf8)) as? [String: Any])
        func resolve(_ reference: String) -> Any? {
            reference.dropFirst(2).split(separator: "/").reduce(document as Any?) { node, part in
                (node as? [String: Any])?[String(part)]
            }
        }
        var references: [String] = []
        func collect(_ node: Any) {
            if let object = node as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(collect)
            } else if let array = node as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        XCTAssertGreaterThan(references.count, 40)
        for reference in references {
            XCTAssertNotNil(resolve(reference), reference)
        }
        let channels = try XCTUnwrap(document["channels"] as? [String: [String: Any]])
        for pipeline in PipelineDescriptor.all {
            let channel = try XCTUnwrap(channels.values.first { $0["address"] as? String == pipeline.path }, pipeline.path)
            let query = (channel["bindings"] as? [String: Any])?["ws"] as? [String: Any]
            let trace = ((query?["query"] as? [String: Any])?["properties"] as? [String: Any])?["trace"] as? [String: Any]
            let honoured = trace?["enum"] as? [String] ?? []
            XCTAssertEqual(honoured, ["1", "true"], "\(pipeline.path): the ?trace= parameter")
            for value in ["1", "true", "0", "yes"] {
                let request = HTTPRequest(method: .get, target: pipeline.path + "?trace=" + value)
                XCTAssertEqual(PipelineTracer.isRequested(by: request), honoured.contains(value), "?trace=\(value): as the document says")
            }
            for name in pipeline.messages.send + pipeline.messages.receive {
                XCTAssertNotNil(AsyncAPIMessages.all[name], "\(pipeline.name): message \(name)")
            }
        }
    }
}
