import FuzzSupport
import Foundation
import PipelineWire
@testable import ServiceApp

// libFuzzer entry for composed pipeline definitions: the `pipeline` object of a `subscribe` on
// `/ws/pipelines`, read by PipelineWire's `PipelineDefinition(decoding:limits:)`.
//
// Input: the definition's bytes, decoded as UTF-8 with repair (the reader hands the multiplexer
// valid UTF-8 only). Each input is read under the default limits and under small ones.
// Checked:
// - nothing traps, whatever the text (deep nesting, huge numbers, odd escapes, many stages);
// - an accepted definition has 1…maxStages stages and at most maxLookups lookups, passes
//   `validate(limits:)`, and its normalised `json` is one line of JSON that reads back as the
//   same definition (and is its own normal form);
// - a refusal says why, and names a stage the definition has (an index below the number of
//   elements of its `stages` array, as Foundation reads it) or none; its `bad_pipeline` error
//   frame reads back as itself;
// - the same text inside a `subscribe` frame is handed on exactly (`MuxPipelineName.composed`;
//   when the text is more than one object, the object it begins with), and read there it gives
//   the same answer; the frame fed to a new `MuxStateMachine` ends in
//   reading the next frame.

/// Small limits, so that their edges are reached too.
let smallLimits = ComposerLimits(maxStages: 3, maxMs: 100, maxCount: 3, maxStringLength: 4, maxLookups: 1, maxPublishers: 2)

@inline(never)
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for limits in [ComposerLimits(), smallLimits] {
        check(text, limits: limits)
    }
    fuzzSubscribe(text)
    return 0
}

/// The definition's answer under `limits`, checked.
@discardableResult
func check(_ text: String, limits: ComposerLimits) -> Result<PipelineDefinition, BadPipeline> {
    let result = Result { () throws(BadPipeline) in try PipelineDefinition(decoding: text, limits: limits) }
    switch result {
    case .success(let definition):
        precondition((1 ... limits.maxStages).contains(definition.stages.count), "1…maxStages stages")
        let lookups = definition.stages.filter { if case .lookup = $0 { true } else { false } }.count
        precondition(lookups <= limits.maxLookups, "at most maxLookups lookups")
        precondition((try? definition.validate(limits: limits)) != nil, "an accepted definition validates")
        let json = definition.json
        precondition(!json.contains("\n"), "one line")
        precondition((try? JSONSerialization.jsonObject(with: Data(json.utf8))) is [String: Any], "the normalised text is a JSON object")
        let again = Result { () throws(BadPipeline) in try PipelineDefinition(decoding: json, limits: limits) }
        precondition(again == .success(definition), "the normalised text reads back as the same definition")
        precondition(again.map(\.json) == .success(json), "the normalised text is its own normal form")
    case .failure(let refusal):
        precondition(!refusal.message.isEmpty, "a refusal says why")
        if let stage = refusal.stage {
            precondition(stage >= 0 && stage < limits.maxStages, "a stage within the limit")
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            if let stages = object?["stages"] as? [Any] {
                precondition(stage < stages.count, "a stage the definition has")
            }
        }
        let frame = MuxServerFrame.error(id: "c", code: .badPipeline, message: refusal.message, stage: refusal.stage)
        precondition((try? MuxServerFrame(decoding: frame.json)) == frame, "the bad_pipeline error reads back")
    }
    return result
}

/// The text as a `subscribe`'s pipeline: handed on exactly, read alike, and the multiplexer goes on.
func fuzzSubscribe(_ text: String) {
    let frameText = #"{"id":"c","pipeline":"# + text + #","type":"subscribe"}"#
    guard case .subscribe(_, let pipeline, _, _)? = try? MuxClientFrame(decoding: frameText) else { return }
    switch pipeline {
    case .composed(let object):
        // The text may close the object and go on with other members of the frame: the object
        // is then where it begins.
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r"))
        precondition(trimmed.utf8.starts(with: object.utf8), "the definition object is handed on exactly")
        if object.utf8.count == trimmed.utf8.count {
            precondition(check(object, limits: ComposerLimits()) == check(text, limits: ComposerLimits()), "whitespace around it changes nothing")
        }
    case .catalog:
        precondition(text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r")).utf8.first == UInt8(ascii: "\""), "a catalog name is a string")
    }
    var machine = MuxStateMachine(settings: .init())
    let actions = machine.handle(.frame(.subscribe(id: "c", pipeline: pipeline, demand: .unlimited, trace: false)))
    precondition(actions.last == .readNext || actions.last.map { if case .openSession = $0 { true } else { false } } == true,
                 "the next frame is read, unless fair use is asked")
}

/// The executable's entry point (see docs/fuzzing.md): hands over to libFuzzer's driver.
@_cdecl("FuzzPipelineDefinition_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
