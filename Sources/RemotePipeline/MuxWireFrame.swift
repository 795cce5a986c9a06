import Foundation
import StreamCore

/// A client → server frame of `/ws/pipelines`: a subscriber's calls on the wire.
enum MuxClientWireFrame: Equatable, Sendable {
    case subscribe(id: String, pipeline: String, demand: Subscribers.Demand)
    case send(id: String, message: RemotePipelineMessage)
    case request(id: String, demand: Subscribers.Demand)
    case cancel(id: String)

    /// The frame's JSON text.
    var text: String {
        switch self {
        case .subscribe(let id, let pipeline, let demand):
            #"{"type":"subscribe","id":\#(JSONText.quoted(id)),"pipeline":\#(JSONText.quoted(pipeline)),"demand":\#(Self.wire(demand))}"#
        case .send(let id, let message):
            #"{"type":"send","id":\#(JSONText.quoted(id)),"message":\#(message.json)}"#
        case .request(let id, let demand):
            #"{"type":"request","id":\#(JSONText.quoted(id)),"n":\#(Self.wire(demand))}"#
        case .cancel(let id):
            #"{"type":"cancel","id":\#(JSONText.quoted(id))}"#
        }
    }

    /// A demand as the contract writes it: an integer or `"unlimited"`.
    private static func wire(_ demand: Subscribers.Demand) -> String {
        demand.max.map(String.init) ?? #""unlimited""#
    }
}

/// A server → client frame of `/ws/pipelines`.
enum MuxServerWireFrame: Equatable, Sendable {
    case subscribed(id: String)
    case event(id: String, RemoteEvent)
    case trace(id: String)
    /// `completion`: `failure` nil when it finished.
    case completion(id: String, failure: RemotePipelineError?)
    /// `error`: a refused client frame (`id` nil when the frame had none).
    case error(id: String?, RemotePipelineError)

    /// Reads one text frame; throws `.invalidFrame` for anything the contract does not define.
    init(text: String) throws(RemotePipelineError) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let type = object["type"] as? String
        else { throw .invalidFrame("not a JSON object with a type: \(text.prefix(200))") }
        let id = object["id"] as? String
        switch (type, id) {
        case ("subscribed", let id?):
            self = .subscribed(id: id)
        case ("event", let id?):
            guard let body = object["event"] as? [String: Any], let event = RemoteEvent(object: body) else {
                throw .invalidFrame("an event frame without an event object: \(text.prefix(200))")
            }
            self = .event(id: id, event)
        case ("trace", let id?):
            self = .trace(id: id)
        case ("completion", let id?):
            if let failure = object["failure"] as? [String: Any] {
                self = .completion(id: id, failure: .failed(code: failure["code"] as? String ?? "", message: failure["message"] as? String ?? ""))
            } else {
                self = .completion(id: id, failure: nil)
            }
        case ("error", _):
            self = .error(id: id, .refused(code: object["code"] as? String ?? "", message: object["message"] as? String ?? ""))
        default:
            throw .invalidFrame("unknown frame: \(text.prefix(200))")
        }
    }
}
