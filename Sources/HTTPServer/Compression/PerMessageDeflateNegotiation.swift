/// Server-side negotiation of permessage-deflate (RFC 7692 section 7.1).
public enum PerMessageDeflateNegotiation {
    /// The extension token.
    public static let extensionName = "permessage-deflate"

    /// Picks the first acceptable permessage-deflate offer among the client's
    /// `Sec-WebSocket-Extensions` values; returns the agreed parameters and the value of the
    /// response's `Sec-WebSocket-Extensions`, or nil to run without compression. Offers with
    /// unknown, duplicate or invalid parameters are declined.
    public static func negotiate(
        offers headerValues: [String], configuration: PerMessageDeflateConfiguration
    ) -> (parameters: PerMessageDeflateParameters, response: String)? {
        for offer in WebSocketExtensionOffer.parse(headerValues) where offer.name == extensionName {
            if let accepted = accept(offer, configuration: configuration) { return accepted }
        }
        return nil
    }

    /// The agreement for one offer, or nil to decline it.
    static func accept(
        _ offer: WebSocketExtensionOffer, configuration: PerMessageDeflateConfiguration
    ) -> (parameters: PerMessageDeflateParameters, response: String)? {
        guard !offer.isMalformed else { return nil }
        var seen = Set<String>()
        var serverNoContextTakeover = false
        var clientNoContextTakeover = false
        var requestedServerBits: Int?
        var clientBitsOffered = false
        var offeredClientBits: Int?
        for parameter in offer.parameters {
            guard seen.insert(parameter.name).inserted else { return nil }
            switch parameter.name {
            case "server_no_context_takeover":
                guard parameter.value == nil else { return nil }
                serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard parameter.value == nil else { return nil }
                clientNoContextTakeover = true
            case "server_max_window_bits":
                guard let value = parameter.value, let bits = windowBits(value) else { return nil }
                requestedServerBits = bits
            case "client_max_window_bits":
                clientBitsOffered = true
                if let value = parameter.value {
                    guard let bits = windowBits(value) else { return nil }
                    offeredClientBits = bits
                }
            default:
                return nil
            }
        }

        var parameters = PerMessageDeflateParameters()
        var response = [extensionName]
        if serverNoContextTakeover || configuration.serverNoContextTakeover {
            parameters.serverNoContextTakeover = true
            response.append("server_no_context_takeover")
        }
        if clientNoContextTakeover || configuration.clientNoContextTakeover {
            parameters.clientNoContextTakeover = true
            response.append("client_no_context_takeover")
        }
        let serverBits = min(requestedServerBits ?? 15, configuration.serverMaxWindowBits)
        parameters.serverMaxWindowBits = serverBits
        if requestedServerBits != nil || serverBits < 15 {
            response.append("server_max_window_bits=\(serverBits)")
        }
        if clientBitsOffered {
            let limit = min(offeredClientBits ?? 15, configuration.clientMaxWindowBits ?? 15)
            parameters.clientMaxWindowBits = limit
            if offeredClientBits != nil || configuration.clientMaxWindowBits != nil {
                response.append("client_max_window_bits=\(limit)")
            }
        }
        return (parameters, response.joined(separator: "; "))
    }

    /// A window size parameter value: a decimal 8...15 without leading zeros.
    static func windowBits(_ value: String) -> Int? {
        guard value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              !value.hasPrefix("0"), value.utf8.count <= 2, let bits = Int(value), (8 ... 15).contains(bits)
        else { return nil }
        return bits
    }
}
