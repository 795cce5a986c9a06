/// GitHub-like logins the simulated users type: well-known accounts and plausible personal
/// handles (3–20 characters, letters, digits, single hyphens).
enum Names {
    static let logins: [String] = [
        "torvalds", "gaearon", "sindresorhus", "yyx990803", "tjholowaychuk", "addyosmani", "paulirish", "kentcdodds",
        "mojombo", "defunkt", "pjhyett", "wycats", "jeresig", "dhh", "fabpot", "taylorotwell",
        "mitchellh", "fatih", "rsc", "bradfitz", "robpike", "ianlancetaylor", "antirez", "mattn",
        "heckj", "mattt", "kylef", "jessesquires", "twostraws", "krzyzanowskim", "JohnSundell", "onevcat",
        "ashfurrow", "orta", "ole", "lattner", "DougGregor", "jckarter", "rjmccall", "airspeedswift",
        "tkremenek", "slavapestov", "hborla", "xedin", "ktoso", "weissi", "Lukasa", "glbrntt",
        "fabianfett", "adam-fowler", "0xTim", "gwynne", "tanner0101", "vzsg", "calebkleveter", "jaredh159",
        "octocat", "hubot", "atom", "nat", "schacon", "peff", "gitster", "jlord",
        "zpao", "sebmarkbage", "acdlite", "sophiebits", "bvaughn", "rickhanlonii", "gnoff", "eps1lon",
        "rauchg", "timneutkens", "leerob", "shuding", "feross", "substack", "isaacs", "ryah",
        "bnoordhuis", "indutny", "mcollina", "jasnell", "targos", "addaleax", "joyeecheung", "devsnek",
        "kennethreitz", "gvanrossum", "ambv", "hynek", "dabeaz", "mitsuhiko", "davidism", "tiangolo",
        "wesm", "jreback", "fchollet", "karpathy", "soumith", "ezyang", "jph00", "hardmaru",
        "steveklabnik", "carllerche", "dtolnay", "BurntSushi", "matklad", "alexcrichton", "nikomatsakis", "withoutboats",
        "jonhoo", "seanmonstar", "Manishearth", "killercup", "LukasKalbertodt", "fasterthanlime", "yoshuawuyts", "estebank",
        "jashkenas", "tpope", "junegunn", "vim", "neovim", "folke", "tjdevries", "ThePrimeagen",
        "mrdoob", "Rich-Harris", "evanw", "developit", "ryansolid", "youyuxi", "posva", "antfu",
        "thomasdavis", "jakearchibald", "surma", "una", "argyleink", "csswizardry", "chriscoyier", "LeaVerou",
        "anna-kowalska", "jan-novak", "maria-garcia", "li-wei", "raj-patel", "emma-smith", "lucas-martin", "sofia-rossi",
        "olivia-chen", "noah-brown", "mia-wilson", "ethan-lee", "ava-taylor", "liam-nguyen", "zoe-kim", "leo-muller",
        "pkowalczyk", "jdoe42", "asmith7", "mjohnson", "klee2019", "tnguyen88", "rgarcia", "dkim-dev",
        "samdev", "codewitch", "bytebandit", "nullpointer", "stackpusher", "gopherlove", "rustacean99", "swiftie-dev",
        "cloudnative", "devopsdan", "kubekid", "dataninja", "mlwizard", "pixelpusher", "uxanna", "frontendfred",
        "backendbob", "fullstackfay", "testmaster", "bugsquasher", "refactorer", "linthunter", "ci-bot-fan", "yamlsmith",
        "wuzhao", "zhangsan", "lisi2020", "tanaka-k", "suzuki-h", "park-jisoo", "kim-minho", "nguyenvan",
        "ivanov", "petrov-a", "schmidt-j", "dupont", "rossi-m", "silva-pedro", "oliveira", "kowalski",
    ]
}
