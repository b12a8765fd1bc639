//! Structure-aware mutations of valid seed inputs: byte flips, truncation, splices, deletions,
//! repeated chunks, and for JSON text number and string replacement, deep nesting and repeated
//! keys. Deterministic from a `u64` seed, so a failing case is reproducible from its seed.

/// Numbers that break naive readers.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "2",
    "3",
    "7",
    "64",
    "65",
    "255",
    "256",
    "1024",
    "8192",
    "8193",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1e6",
    "1e7",
    "1.0000001e7",
    "3e38",
    "3.5e38",
    "1e20",
    "-1e20",
    "1e308",
    "-1e308",
    "1e999",
    "1e-45",
    "1e-320",
    "5e-324",
    "-5e-324",
    "0.1",
    "100000",
    "100001",
    "1000001",
    "20000001",
    "1e-7",
    "89",
    "90",
    "91",
    "512",
    "513",
];

/// Strings that break naive readers.
const STRINGS: &[&str] = &[
    "",
    "ääääääääääääääääääääääääääääääääääääääääääääääääääääää",
    "𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞",
    "/dev/zero",
    "../../../etc/passwd",
    "res://../outside.png",
    "C:\\\\Windows\\\\x.png",
    "asset://",
    "\\u0000",
    "\\ud800",
    "raise",
    "protect",
    "ramp",
    "region",
    "river",
    "lake",
    "ocean",
    "erosion",
    "terrain_output",
    "circle",
    "square",
];

/// A mutation engine over one input.
pub struct Mutator {
    rng: fastrand::Rng,
}

impl Mutator {
    /// A mutator for case `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// The random source (for callers' own choices).
    pub fn rng(&mut self) -> &mut fastrand::Rng {
        &mut self.rng
    }

    /// 1..=4 mutations of `input`; `donors` feed splices; `text` enables JSON-aware ones.
    pub fn mutate(&mut self, input: &[u8], donors: &[&[u8]], text: bool) -> Vec<u8> {
        let mut out = input.to_vec();
        let n = 1 + self.rng.usize(0..4);
        for _ in 0..n {
            let kinds = if text { 13 } else { 8 };
            match self.rng.usize(0..kinds) {
                0 => self.flip(&mut out),
                1 => self.truncate(&mut out),
                2 => self.splice(&mut out, donors),
                3 => self.delete(&mut out),
                4 => self.repeat(&mut out),
                5 => self.set_byte(&mut out, text),
                6 | 7 if !text => self.binary_value(&mut out),
                6 => self.replace_number(&mut out),
                7 => self.replace_number(&mut out),
                8 => self.replace_string(&mut out),
                9 => self.nest(&mut out),
                10 => self.duplicate_key(&mut out),
                11 => self.swap_tokens(&mut out),
                _ => self.replace_number(&mut out),
            }
        }
        out
    }

    fn pos(&mut self, len: usize) -> usize {
        if len == 0 { 0 } else { self.rng.usize(0..len) }
    }

    fn flip(&mut self, b: &mut [u8]) {
        if !b.is_empty() {
            let i = self.pos(b.len());
            b[i] ^= 1 << self.rng.u8(0..8);
        }
    }

    fn set_byte(&mut self, b: &mut [u8], text: bool) {
        if b.is_empty() {
            return;
        }
        let i = self.pos(b.len());
        b[i] = if text {
            *self.rng.choice(b"{}[]\",:0-.e \\\x00\xff").unwrap_or(&b'0')
        } else {
            *self.rng.choice(&[0u8, 1, 0x7f, 0x80, 0xff]).unwrap_or(&0)
        };
    }

    fn truncate(&mut self, b: &mut Vec<u8>) {
        let at = self.pos(b.len() + 1);
        b.truncate(at);
    }

    fn delete(&mut self, b: &mut Vec<u8>) {
        if b.is_empty() {
            return;
        }
        let a = self.pos(b.len());
        let len = 1 + self.rng.usize(0..(b.len() - a).min(64));
        b.drain(a..a + len);
    }

    fn splice(&mut self, b: &mut Vec<u8>, donors: &[&[u8]]) {
        let donor: &[u8] = match donors.len() {
            0 => &b.clone(),
            n => donors[self.rng.usize(0..n)],
        };
        if donor.is_empty() {
            return;
        }
        let a = self.pos(donor.len());
        let len = 1 + self.rng.usize(0..(donor.len() - a).min(256));
        let piece = donor[a..a + len].to_vec();
        let at = self.pos(b.len() + 1);
        b.splice(at..at, piece);
    }

    fn repeat(&mut self, b: &mut Vec<u8>) {
        if b.is_empty() || b.len() > 1 << 20 {
            return;
        }
        let a = self.pos(b.len());
        let len = 1 + self.rng.usize(0..(b.len() - a).min(128));
        let piece = b[a..a + len].repeat(1 + self.rng.usize(0..8));
        b.splice(a..a, piece);
    }

    /// Writes an interesting 4- or 8-byte little-endian value at a random offset.
    fn binary_value(&mut self, b: &mut [u8]) {
        let values: [[u8; 4]; 9] = [
            0u32.to_le_bytes(),
            u32::MAX.to_le_bytes(),
            0x8000_0000u32.to_le_bytes(),
            f32::NAN.to_le_bytes(),
            f32::INFINITY.to_le_bytes(),
            1e20f32.to_le_bytes(),
            (-1e20f32).to_le_bytes(),
            2.0f32.to_le_bytes(),
            f32::MIN_POSITIVE.to_le_bytes(),
        ];
        if b.len() < 4 {
            return;
        }
        let i = self.pos(b.len() - 3);
        let v = values[self.rng.usize(0..values.len())];
        b[i..i + 4].copy_from_slice(&v);
    }

    /// Spans of JSON number tokens.
    fn numbers(b: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut i = 0;
        let mut in_string = false;
        while i < b.len() {
            let c = b[i];
            if in_string {
                if c == b'\\' {
                    i += 1;
                } else if c == b'"' {
                    in_string = false;
                }
                i += 1;
                continue;
            }
            if c == b'"' {
                in_string = true;
                i += 1;
                continue;
            }
            if c == b'-' || c.is_ascii_digit() {
                let s = i;
                while i < b.len() && (b[i].is_ascii_digit() || b"+-.eE".contains(&b[i])) {
                    i += 1;
                }
                out.push((s, i));
                continue;
            }
            i += 1;
        }
        out
    }

    /// Spans of JSON string tokens (quotes included), and whether each is a key.
    fn strings(b: &[u8]) -> Vec<(usize, usize, bool)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'"' {
                let s = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let e = (i + 1).min(b.len());
                let mut j = e;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                out.push((s, e, j < b.len() && b[j] == b':'));
                i = e;
                continue;
            }
            i += 1;
        }
        out
    }

    fn replace_number(&mut self, b: &mut Vec<u8>) {
        let spans = Self::numbers(b);
        if spans.is_empty() {
            return self.flip(b);
        }
        let (s, e) = spans[self.rng.usize(0..spans.len())];
        let with = NUMBERS[self.rng.usize(0..NUMBERS.len())]
            .as_bytes()
            .to_vec();
        b.splice(s..e, with);
    }

    fn replace_string(&mut self, b: &mut Vec<u8>) {
        let spans: Vec<_> = Self::strings(b).into_iter().filter(|s| !s.2).collect();
        if spans.is_empty() {
            return self.flip(b);
        }
        let (s, e, _) = spans[self.rng.usize(0..spans.len())];
        let mut with = format!("\"{}\"", STRINGS[self.rng.usize(0..STRINGS.len())]);
        if self.rng.bool() {
            with = with.replace("ä", &"ä".repeat(1 + self.rng.usize(0..40)));
        }
        b.splice(s..e, with.into_bytes());
    }

    /// Replaces a value (a number) with deeply nested arrays or objects.
    fn nest(&mut self, b: &mut Vec<u8>) {
        let spans = Self::numbers(b);
        let depth = *self
            .rng
            .choice(&[2usize, 16, 127, 128, 129, 1000, 20_000])
            .unwrap_or(&2);
        let (open, close) = if self.rng.bool() {
            ("[".repeat(depth), "]".repeat(depth))
        } else {
            ("{\"a\":".repeat(depth), "}".repeat(depth))
        };
        let with = format!("{open}0{close}").into_bytes();
        match spans.is_empty() {
            true => *b = with,
            false => {
                let (s, e) = spans[self.rng.usize(0..spans.len())];
                b.splice(s..e, with);
            }
        }
    }

    /// Repeats a key of some object right after that object's opening brace.
    fn duplicate_key(&mut self, b: &mut Vec<u8>) {
        let keys: Vec<_> = Self::strings(b).into_iter().filter(|s| s.2).collect();
        if keys.is_empty() {
            return self.flip(b);
        }
        let (s, e, _) = keys[self.rng.usize(0..keys.len())];
        let key = b[s..e].to_vec();
        if let Some(brace) = b[..s].iter().rposition(|&c| c == b'{') {
            let mut insert = key;
            insert.extend_from_slice(b": {},");
            b.splice(brace + 1..brace + 1, insert);
        }
    }

    /// Exchanges two number tokens (keeps the text well-formed more often than raw bytes do).
    fn swap_tokens(&mut self, b: &mut Vec<u8>) {
        let spans = Self::numbers(b);
        if spans.len() < 2 {
            return self.replace_number(b);
        }
        let i = self.rng.usize(0..spans.len());
        let (s, e) = spans[i];
        let (s2, e2) = spans[self.rng.usize(0..spans.len())];
        let other = b[s2..e2].to_vec();
        b.splice(s..e, other);
    }
}
