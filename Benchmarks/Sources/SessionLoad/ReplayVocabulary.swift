/// The `--names replay` mix of issue #12's measure: of the names a session types, half are
/// existing personal logins of its own, a quarter are mistypings of those (GitHub answers 404),
/// and a quarter are popular logins every session types (`Names.logins`). FakeUpstream is told
/// the existing ones (`--print-existing` writes them, `--logins-file` reads them); every other
/// login, prefixes included, is a 404.
struct ReplayVocabulary: Sendable {
    /// Personal logins per session.
    static let perSession = 8

    let sessions: Int
    /// Every login FakeUpstream answers, lowercased.
    let existing: Set<String>

    init(sessions: Int) {
        self.sessions = max(1, sessions)
        var existing = Set(Names.logins.map { $0.lowercased() })
        for session in 0..<self.sessions {
            for slot in 0..<Self.perSession { existing.insert(Self.personal(session: session, slot: slot)) }
        }
        self.existing = existing
    }

    /// The next name session `session` types.
    func name(session: Int, using rng: inout some RandomNumberGenerator) -> String {
        let draw = Double.random(in: 0..<1, using: &rng)
        let own = Self.personal(session: session, slot: Int.random(in: 0..<Self.perSession, using: &rng))
        if draw < 0.5 { return own }
        if draw < 0.75 { return Self.mistyped(own) }
        return Names.logins.randomElement(using: &rng) ?? "heckj"
    }

    /// A personal login that looks like people's: first name, separator, last name, sometimes digits.
    static func personal(session: Int, slot: Int) -> String {
        let number = session * perSession + slot
        let first = firstNames[number % firstNames.count]
        let last = lastNames[(number / firstNames.count) % lastNames.count]
        let style = (number / (firstNames.count * lastNames.count))
        switch style % 3 {
        case 0: return "\(first)-\(last)"
        case 1: return "\(first)\(last)\(style)"
        default: return "\(first.prefix(1))\(last)\(style)"
        }
    }

    /// `login` with its third and fourth letters swapped and one letter doubled: never existing.
    static func mistyped(_ login: String) -> String {
        var characters = Array(login)
        if characters.count >= 4 { characters.swapAt(2, 3) }
        characters.insert(characters[characters.count / 2], at: characters.count / 2)
        let typo = String(characters)
        return typo == login ? login + "x" : typo
    }

    private static let firstNames = [
        "anna", "jan", "maria", "li", "raj", "emma", "lucas", "sofia", "olivia", "noah", "mia", "ethan", "ava", "liam",
        "zoe", "leo", "ivan", "yuki", "omar", "lena", "tomas", "nina", "pablo", "sara", "kenji", "ines", "felix", "hana",
        "diego", "elif", "marco", "ana", "piotr", "julia", "ahmed", "chloe", "lars", "maya", "oscar", "rosa",
    ]
    private static let lastNames = [
        "kowalska", "novak", "garcia", "wei", "patel", "smith", "martin", "rossi", "chen", "brown", "wilson", "lee",
        "taylor", "nguyen", "kim", "muller", "petrov", "tanaka", "haddad", "schmidt", "silva", "dubois", "ito", "costa",
        "jensen", "moreau", "sato", "lopez", "meyer", "horvat", "berg", "yilmaz", "fischer", "santos", "weber", "kaur",
    ]
}
