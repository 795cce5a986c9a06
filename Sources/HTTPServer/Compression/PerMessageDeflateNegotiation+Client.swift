/// Client-side negotiation of permessage-deflate (RFC 7692 section 7.1): the offer a client
/// sends, and the checks on the server's answer.
extension PerMessageDeflateNegotiation {
    /// The `Sec-WebSocket-Extensions` value offering permessage-deflate as `configuration`
    /// describes: always `client_max_window_bits` (with its value when limited), so a server
    /// may hold our window down; the server's parameters only when they ask for something.
    public static func offer(_ configuration: PerMessageDeflateConfiguration) -> String {
        var parts = [extensionName]
        if configuration.serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if configuration.clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if configuration.serverMaxWindowBits < 15 { parts.append("server_max_window_bits=\(configuration.serverMaxWindowBits)") }
        if let bits = configuration.clientMaxWindowBits {
            parts.append("client_max_window_bits=\(bits)")
        } else {
            parts.append("client_max_window_bits")
        }
        return parts.joined(separator: "; ")
    }

    /// The parameters the server agreed to in its `Sec-WebSocket-Extensions` values, nil when
    /// it declined compression; throws when the answer is not one a server may give to
    /// `offer(configuration)`: another extension, more than one element, an unknown, repeated
    /// or out-of-range parameter, a window larger than offered, or a request it had to honour
    /// and did not.
    public static func agreement(
        response headerValues: [String], offered configuration: PerMessageDeflateConfiguration
    ) throws(WebSocketClientError) -> PerMessageDeflateParameters? {
        let elements = WebSocketExtensionOffer.parse(headerValues)
        guard let element = elements.first else { return nil }
        guard elements.count == 1, element.name == extensionName, !element.isMalformed else {
            throw .invalidHandshake("Sec-WebSocket-Extensions names what was not offered: \(headerValues.joined(separator: ", "))")
        }
        var parameters = PerMessageDeflateParameters(clientMaxWindowBits: configuration.clientMaxWindowBits ?? 15)
        var seen = Set<String>()
        var serverBitsAnswered = false
        for parameter in element.parameters {
            guard seen.insert(parameter.name).inserted else { throw .invalidHandshake("\(parameter.name) repeated") }
            switch (parameter.name, parameter.value) {
            case ("server_no_context_takeover", nil):
                parameters.serverNoContextTakeover = true
            case ("client_no_context_takeover", nil):
                parameters.clientNoContextTakeover = true
            case ("server_max_window_bits", let value?):
                guard let bits = windowBits(value), bits <= configuration.serverMaxWindowBits else {
                    throw .invalidHandshake("server_max_window_bits=\(value) was not offered")
                }
                parameters.serverMaxWindowBits = bits
                serverBitsAnswered = true
            case ("client_max_window_bits", let value?):
                guard let bits = windowBits(value), bits <= configuration.clientMaxWindowBits ?? 15 else {
                    throw .invalidHandshake("client_max_window_bits=\(value) was not offered")
                }
                parameters.clientMaxWindowBits = bits
            default:
                throw .invalidHandshake("unexpected permessage-deflate parameter \(parameter.name)")
            }
        }
        if configuration.serverNoContextTakeover, !parameters.serverNoContextTakeover {
            throw .invalidHandshake("server_no_context_takeover was asked for and not answered")
        }
        if configuration.serverMaxWindowBits < 15, !serverBitsAnswered {
            throw .invalidHandshake("server_max_window_bits was asked for and not answered")
        }
        // We promised to reset our compressor: whatever the answer, keep the promise.
        if configuration.clientNoContextTakeover { parameters.clientNoContextTakeover = true }
        return parameters
    }
}
