import Foundation
import PipelineWire
import XCTest

@testable import ServiceApp

/// The composer in `/asyncapi.json` and `/openapi.json`: the definition schema is the operator
/// catalog's (every operator, parameter, bound and enum), definitions the service accepts fit
/// it, and the composed frames fit their messages.
final class ComposerDocumentTests: XCTestCase {
    private typealias Object = [String: Any]

    private func asyncAPI() throws -> Object {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(AsyncAPIDocument.json.utf8)) as? Object)
    }

    private func value(_ node: Any?, _ path: String...) -> Any? {
        path.reduce(node) { ($0 as? Object)?[$1] }
    }

    /// The definition schema of the subscribe message.
    private func definitionSchema() throws -> Object {
        let pipeline = try XCTUnwrap(value(try asyncAPI(), "components", "messages", "muxSubscribe", "payload", "properties", "pipeline") as? Object)
        let alternatives = try XCTUnwrap(pipeline["oneOf"] as? [Object])
        XCTAssertEqual(alternatives.count, 2)
        XCTAssertEqual(alternatives.first?["type"] as? String, "string", "a catalog name")
        return try XCTUnwrap(alternatives.last)
    }

    /// The stage schemas, by op.
    private func stageSchemas(_ definition: Object) throws -> [String: Object] {
        let stages = try XCTUnwrap(value(definition, "properties", "stages", "items", "oneOf") as? [Object])
        return Dictionary(uniqueKeysWithValues: try stages.map { (try XCTUnwrap(value($0, "properties", "op", "const") as? String), $0) })
    }

    /// `stage` (a normalised stage object) fits its op's schema: known keys only, the required
    /// ones, integers within bounds, enum values listed.
    private func assertFits(_ stage: Object, _ schemas: [String: Object], line: UInt = #line) throws {
        let op = try XCTUnwrap(stage["op"] as? String, line: line)
        let schema = try XCTUnwrap(schemas[op], op, line: line)
        let properties = try XCTUnwrap(schema["properties"] as? Object, line: line)
        XCTAssertTrue(Set(stage.keys).isSubset(of: properties.keys), "\(stage)", line: line)
        XCTAssertTrue(Set(schema["required"] as? [String] ?? []).isSubset(of: stage.keys), "\(stage)", line: line)
        XCTAssertEqual(schema["additionalProperties"] as? Bool, false, line: line)
        for (key, value) in stage where key != "op" {
            let property = try XCTUnwrap(properties[key] as? Object, line: line)
            if let minimum = property["minimum"] as? Int, let number = value as? Int { XCTAssertGreaterThanOrEqual(number, minimum, key, line: line) }
            if let maximum = property["maximum"] as? Int, let number = value as? Int { XCTAssertLessThanOrEqual(number, maximum, key, line: line) }
            if let values = property["enum"] as? [String] { XCTAssertTrue(values.contains(value as? String ?? ""), key, line: line) }
        }
    }

    func testTheDefinitionSchemaIsTheOperatorCatalog() throws {
        let definition = try definitionSchema()
        XCTAssertEqual(definition["required"] as? [String], ["stages"])
        XCTAssertEqual(value(definition, "properties", "stages", "maxItems") as? Int, ComposerLimits().maxStages)
        let schemas = try stageSchemas(definition)
        XCTAssertEqual(Set(schemas.keys), Set(ComposedStage.ops))
        for description in OperatorDescription.all {
            let schema = try XCTUnwrap(schemas[description.op])
            let properties = try XCTUnwrap(schema["properties"] as? Object)
            XCTAssertEqual(Set(properties.keys), Set(["op"] + description.parameters.map(\.name)), description.op)
            XCTAssertEqual(schema["required"] as? [String], ["op"] + description.parameters.filter(\.required).map(\.name), description.op)
        }
        let full = PipelineDefinition(stages: [
            .filter(minLength: 0, maxLength: 256, prefix: "x"), .map(.trimmed), .scan(.joined(separator: ",")), .throttle(ms: 10_000, latest: false),
            .lookup(.githubUser, flatten: .flatMap(maxPublishers: 8)), .retry(times: 100), .map(.login), .collect(.count(100)),
        ])
        XCTAssertNoThrow(try full.validate())
        for definition in PipelineDefinition.presets.map(\.definition) + [full] {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(definition.json.utf8)) as? Object)
            XCTAssertEqual(Set(object.keys), ["stages"])
            for stage in try XCTUnwrap(object["stages"] as? [Object]) { try assertFits(stage, schemas) }
        }
    }

    /// A composed subscribe, a bad_pipeline refusal and a composed instance's own events fit
    /// their messages.
    func testComposedFramesFitTheirMessages() throws {
        let document = try asyncAPI()
        let messages = try XCTUnwrap(value(document, "components", "messages") as? Object)
        let subscribe = MuxClientFrame.subscribe(id: "c", pipeline: .composed(PipelineDefinition.presets[0].definition), demand: .max(16), trace: true)
        let frame = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(subscribe.json.utf8)) as? Object)
        XCTAssertTrue(Set(frame.keys).isSubset(of: (value(messages, "muxSubscribe", "payload", "properties") as? Object)?.keys.map { $0 } ?? []))
        XCTAssertNotNil(frame["pipeline"] as? Object)

        let error = try XCTUnwrap(value(messages, "muxError", "payload") as? Object)
        XCTAssertEqual(value(error, "properties", "stage", "type") as? [String], ["integer", "null"])
        XCTAssertEqual(value(error, "if", "properties", "code", "const") as? String, "bad_pipeline")
        XCTAssertEqual(value(error, "then", "required") as? [String], ["stage"])
        for refusal in [MuxServerFrame.error(id: "c", code: .badPipeline, message: "m", stage: 2), .error(id: "c", code: .badPipeline, message: "m")] {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(refusal.json.utf8)) as? Object)
            XCTAssertTrue(object.keys.contains("stage"), refusal.json)
            XCTAssertTrue(Set(object.keys).isSubset(of: (error["properties"] as? Object)?.keys.map { $0 } ?? []))
        }

        let hello = try XCTUnwrap(value(messages, "composedHello", "payload") as? Object)
        XCTAssertEqual(value(hello, "properties", "pipeline", "const") as? String, "composed")
        XCTAssertEqual(Set(hello["required"] as? [String] ?? []), ["pipeline", "stages", "type"])
        let valueMessage = try XCTUnwrap(value(messages, "composedValue", "payload") as? Object)
        XCTAssertEqual(value(valueMessage, "properties", "value", "type") as? [String], ["string", "number", "boolean", "array"])
        let events = try XCTUnwrap(value(messages, "muxEvent", "payload", "properties", "event", "anyOf") as? [Object])
        let types = events.compactMap { value($0, "properties", "type", "const") as? String }
        XCTAssertTrue(types.contains("value"), "\(types)")
        XCTAssertEqual(events.filter { value($0, "properties", "pipeline", "const") as? String == "composed" }.count, 1)
        XCTAssertTrue((value(messages, "muxSubscribed", "payload", "properties", "pipeline", "enum") as? [String])?.contains("composed") == true)
    }

    func testTheOpenAPIDocumentDescribesTheCatalog() throws {
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? Object)
        let schema = try XCTUnwrap(value(document, "paths", "/api/operators", "get", "responses", "200", "content", "application/json", "schema") as? Object)
        XCTAssertEqual(Set(schema["required"] as? [String] ?? []), ["limits", "operators", "presets"])
        let catalog = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(OperatorDescription.catalogJSON(limits: ComposerLimits()).utf8)) as? Object)
        XCTAssertEqual(Set((value(schema, "properties", "limits", "properties") as? Object)?.keys.map { $0 } ?? []),
                       Set((catalog["limits"] as? Object)?.keys.map { $0 } ?? []))
        let operatorSchema = try XCTUnwrap(value(schema, "properties", "operators", "items") as? Object)
        XCTAssertEqual(value(operatorSchema, "properties", "op", "enum") as? [String], ComposedStage.ops)
        let parameterSchema = try XCTUnwrap(value(operatorSchema, "properties", "parameters", "items") as? Object)
        for entry in try XCTUnwrap(catalog["operators"] as? [Object]) {
            XCTAssertEqual(Set(entry.keys), Set(operatorSchema["required"] as? [String] ?? []))
            for parameter in entry["parameters"] as? [Object] ?? [] {
                XCTAssertTrue(Set(parameter.keys).isSubset(of: (parameterSchema["properties"] as? Object)?.keys.map { $0 } ?? []))
                XCTAssertTrue((value(parameterSchema, "properties", "type", "enum") as? [String])?.contains(parameter["type"] as? String ?? "") == true)
            }
        }
        XCTAssertEqual(value(schema, "properties", "presets", "items", "properties", "name", "enum") as? [String], PipelineDefinition.presets.map(\.name))
    }
}
