import Foundation
import PipelineWire
import XCTest

@testable import ServiceApp

/// The four places the `/ws/pipelines` frames are written agree: the wire codec (PipelineWire),
/// `/asyncapi.json`'s messages, and the page script's frames (`/pipelines.js`). The codec's
/// frame types, fields, error and failure codes and id limit are the ones the document declares;
/// every frame the codec writes has only the document's fields and all its required ones; the
/// script sends only the codec's client frames with their fields, and handles exactly its
/// server frames.
final class MuxWireContractTests: XCTestCase {
    /// The payload schema of each `/ws/pipelines` message, by its `type` const, for one direction.
    private func payloads(_ operation: String) throws -> [String: [String: Any]] {
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(AsyncAPIDocument.json.utf8)) as? [String: Any])
        let operations = try XCTUnwrap(document["operations"] as? [String: Any])
        let references = try XCTUnwrap((operations[operation] as? [String: Any])?["messages"] as? [[String: String]])
        let messages = try XCTUnwrap((document["components"] as? [String: Any])?["messages"] as? [String: Any])
        var payloads: [String: [String: Any]] = [:]
        for reference in references {
            let name = try XCTUnwrap(reference["$ref"]?.split(separator: "/").last.map(String.init))
            let payload = try XCTUnwrap((messages[name] as? [String: Any])?["payload"] as? [String: Any], name)
            let properties = try XCTUnwrap(payload["properties"] as? [String: Any], name)
            let type = try XCTUnwrap((properties["type"] as? [String: Any])?["const"] as? String, name)
            payloads[type] = payload
        }
        return payloads
    }

    private func properties(_ payload: [String: Any]?) -> Set<String> {
        Set(((payload?["properties"] as? [String: Any]) ?? [:]).keys).subtracting(["type"])
    }

    private func required(_ payload: [String: Any]?) -> Set<String> {
        Set((payload?["required"] as? [String]) ?? []).subtracting(["type"])
    }

    func testTheAsyncAPIDocumentDeclaresTheCodecsClientFrames() throws {
        let payloads = try payloads("sendPipelines")
        XCTAssertEqual(Set(payloads.keys), Set(MuxClientFrame.types))
        for type in MuxClientFrame.types {
            let fields = try XCTUnwrap(MuxClientFrame.fields[type])
            XCTAssertEqual(properties(payloads[type]), Set(fields.all), type)
            XCTAssertEqual(required(payloads[type]), Set(fields.required), type)
            let id = (payloads[type]?["properties"] as? [String: Any])?["id"] as? [String: Any]
            XCTAssertEqual(id?["maxLength"] as? Int, MuxClientFrame.maxIDLength, type)
        }
        let samples: [MuxClientFrame] = [
            .subscribe(id: "u1", pipeline: "form", demand: .max(4), trace: true),
            .send(id: "u1", message: .object(json: #"{"type":"refresh"}"#)),
            .send(id: "u1", message: .text("heckj")),
            .request(id: "u1", demand: .unlimited),
            .cancel(id: "u1"),
        ]
        for frame in samples {
            try assertFits(frame.json, payloads)
        }
    }

    func testTheAsyncAPIDocumentDeclaresTheCodecsServerFrames() throws {
        let payloads = try payloads("receivePipelines")
        XCTAssertEqual(Set(payloads.keys), Set(MuxServerFrame.types))
        for type in MuxServerFrame.types {
            let fields = Set(try XCTUnwrap(MuxServerFrame.fields[type]))
            // A trace's other fields are the tracer's (its endpoint's trace schema).
            if type == "trace" {
                XCTAssertTrue(fields.isSubset(of: properties(payloads[type])), type)
            } else {
                XCTAssertEqual(properties(payloads[type]), fields, type)
            }
        }
        let error = payloads["error"]?["properties"] as? [String: Any]
        XCTAssertEqual((error?["code"] as? [String: Any])?["enum"] as? [String], MuxErrorCode.allCases.map(\.rawValue))
        let failure = (payloads["completion"]?["properties"] as? [String: Any])?["failure"] as? [String: Any]
        let failureCode = (failure?["properties"] as? [String: Any])?["code"] as? [String: Any]
        XCTAssertEqual(failureCode?["enum"] as? [String], MuxFailure.Code.allCases.map(\.rawValue))
        let samples: [MuxServerFrame] = [
            .subscribed(id: "u1", pipeline: "form"),
            .event(id: "u1", event: #"{"pipeline":"form","type":"hello"}"#),
            .trace(id: "u1", trace: #"{"event":"value","stage":"input","t":2,"type":"trace","value":"a"}"#),
            .completion(id: "u1", failure: nil),
            .overflow(id: "u1", limit: 256),
            .error(id: nil, code: .badMessage, message: "m"),
        ]
        for frame in samples {
            try assertFits(frame.json, payloads)
        }
    }

    /// `json` has only fields its message declares, and every one it requires (the top level).
    private func assertFits(_ json: String, _ payloads: [String: [String: Any]], line: UInt = #line) throws {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json, line: line)
        let type = try XCTUnwrap(object["type"] as? String, json, line: line)
        let keys = Set(object.keys).subtracting(["type"])
        let payload = payloads[type]
        XCTAssertTrue(keys.isSubset(of: properties(payload)), "\(json): fields the document does not declare", line: line)
        let alternatives = (payload?["oneOf"] as? [[String: Any]])?.map { required($0) } ?? [[]]
        XCTAssertTrue(required(payload).isSubset(of: keys), "\(json): a required field missing", line: line)
        XCTAssertTrue(alternatives.contains { $0.isSubset(of: keys) }, "\(json): none of oneOf", line: line)
    }

    /// The frames `/pipelines.js` writes (`send({ type: … })`, `var frame = { type: … }` and the
    /// fields set on it after) and the `type`s its `receive` handles.
    func testThePageScriptSpeaksTheCodecsFrames() throws {
        let script = PipelineClientScript.script
        var sent: [String: Set<String>] = [:]
        let literal = try NSRegularExpression(pattern: #"(?:send\(|var frame = )\{ type: "(\w+)", ([^}]*)\}"#)
        for match in literal.matches(in: script, range: NSRange(script.startIndex..., in: script)) {
            let type = String(script[Range(match.range(at: 1), in: script)!])
            let body = String(script[Range(match.range(at: 2), in: script)!])
            let keys = try NSRegularExpression(pattern: #"(\w+): "#).matches(in: body, range: NSRange(body.startIndex..., in: body))
                .map { String(body[Range($0.range(at: 1), in: body)!]) }
            sent[type, default: []].formUnion(keys)
        }
        let later = try NSRegularExpression(pattern: #"frame\.(\w+) = "#).matches(in: script, range: NSRange(script.startIndex..., in: script))
        sent["subscribe", default: []].formUnion(later.map { String(script[Range($0.range(at: 1), in: script)!]) })
        XCTAssertEqual(Set(sent.keys), ["subscribe", "request", "send", "cancel"], "the frames the page sends (cancel: the playground's)")
        for (type, keys) in sent {
            let fields = try XCTUnwrap(MuxClientFrame.fields[type], type)
            XCTAssertTrue(keys.isSubset(of: fields.all), "\(type): \(keys.sorted()) beyond \(fields.all)")
            XCTAssertTrue(Set(fields.required).isSubset(of: keys), "\(type): \(keys.sorted()) lacks one of \(fields.required)")
        }
        let receive = try XCTUnwrap(script.range(of: "function receive(data)")).upperBound
        let handled = try NSRegularExpression(pattern: #"case "(\w+)":"#)
            .matches(in: script, range: NSRange(receive..., in: script))
            .map { String(script[Range($0.range(at: 1), in: script)!]) }
        XCTAssertEqual(handled, MuxServerFrame.types, "the frames the page handles, in the codec's order")
    }
}
