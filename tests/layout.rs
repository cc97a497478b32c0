//! The binary's code layout on Linux with glibc: the code a start runs
//! comes first, in `.text.ordered` (see build.rs and
//! examples/linkorder.rs), read from the ELF section and symbol tables of
//! the built binary (64-bit little-endian, as on x86-64 and AArch64).

#![cfg(all(
    target_os = "linux",
    target_env = "gnu",
    target_pointer_width = "64",
    target_endian = "little"
))]

/// Whether a symbol's name is the one looked for.
type Named<'a> = &'a dyn Fn(&str) -> bool;

/// One section's header, as far as these tests read it.
#[derive(Debug)]
struct Section {
    /// Its name.
    name: String,
    /// `sh_type`: what it holds (2 is a symbol table).
    kind: u32,
    /// Where it is loaded.
    address: u64,
    /// Where it starts in the file.
    offset: usize,
    /// Its size in bytes.
    size: usize,
    /// `sh_link`: for a symbol table, the section of its names.
    link: usize,
}

/// A 64-bit little-endian ELF file's sections and function symbols.
struct Elf {
    bytes: Vec<u8>,
    sections: Vec<Section>,
}

impl Elf {
    fn read(path: &str) -> Elf {
        let bytes = std::fs::read(path).expect("the binary");
        assert_eq!(&bytes[..4], b"\x7fELF", "an ELF file");
        assert_eq!((bytes[4], bytes[5]), (2, 1), "64-bit little-endian");
        let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let table = u64_at(0x28) as usize;
        let entry = u16_at(0x3a) as usize;
        let count = u16_at(0x3c) as usize;
        let names = u16_at(0x3e) as usize;
        let header = |i: usize| table + i * entry;
        let names_at = u64_at(header(names) + 24) as usize;
        let sections = (0..count)
            .map(|i| {
                let at = header(i);
                let name_at = names_at + u32_at(at) as usize;
                let end = bytes[name_at..].iter().position(|&b| b == 0).unwrap();
                Section {
                    name: String::from_utf8_lossy(&bytes[name_at..name_at + end]).into(),
                    kind: u32_at(at + 4),
                    address: u64_at(at + 16),
                    offset: u64_at(at + 24) as usize,
                    size: u64_at(at + 32) as usize,
                    link: u32_at(at + 40) as usize,
                }
            })
            .collect();
        Elf { bytes, sections }
    }

    fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// Every function symbol (`STT_FUNC`) with an address: name, address.
    /// `None` for a stripped binary (a release build's).
    fn functions(&self) -> Option<Vec<(String, u64)>> {
        const SYMTAB: u32 = 2;
        const FUNC: u8 = 2;
        let symtab = self.sections.iter().find(|s| s.kind == SYMTAB)?;
        let strings = &self.sections[symtab.link];
        let bytes = &self.bytes[symtab.offset..symtab.offset + symtab.size];
        let functions = bytes
            .chunks_exact(24)
            .filter(|sym| sym[4] & 0xf == FUNC)
            .map(|sym| {
                let name_at =
                    strings.offset + u32::from_le_bytes(sym[..4].try_into().unwrap()) as usize;
                let end = self.bytes[name_at..].iter().position(|&b| b == 0).unwrap();
                let name = String::from_utf8_lossy(&self.bytes[name_at..name_at + end]).into();
                (name, u64::from_le_bytes(sym[8..16].try_into().unwrap()))
            })
            .filter(|(_, address)| *address != 0)
            .collect();
        Some(functions)
    }
}

/// The functions every start runs lie in `.text.ordered`, before `.text`;
/// the built-in player's, which no start runs, do not. Without the layout
/// (`CLINES_LINK_ORDER=off`, or a linker that takes no script) there is no
/// such section. A stripped binary has no symbols to check.
#[test]
fn the_start_up_code_comes_first() {
    let elf = Elf::read(env!("CARGO_BIN_EXE_clines"));
    let ordered = elf.section(".text.ordered");
    if option_env!("CLINES_LAID_OUT") != Some("true") {
        assert!(ordered.is_none(), "laid out although build.rs did not ask");
        return;
    }
    let ordered = ordered.expect("a .text.ordered section");
    let text = elf.section(".text").expect("a .text section");
    assert!(ordered.address < text.address, "{ordered:?} {text:?}");
    let within =
        |address: u64| (ordered.address..ordered.address + ordered.size as u64).contains(&address);
    let Some(functions) = elf.functions() else {
        return;
    };
    // Paths as both manglings spell them (`_ZN6clines…17h…E`,
    // `_R…Cs…_6clines…`); C names whole.
    let find = |named: Named, what: &str| -> Vec<u64> {
        let found: Vec<u64> = functions
            .iter()
            .filter(|(name, _)| named(name))
            .map(|&(_, address)| address)
            .collect();
        assert!(!found.is_empty(), "no function {what}");
        found
    };
    let c_name = |wanted: &'static str| move |name: &str| name == wanted;
    // A function itself, not the closures in it.
    let rust_fn = |path: &'static str| {
        move |name: &str| {
            let legacy = name.strip_prefix("_ZN").and_then(|n| n.strip_prefix(path));
            legacy.is_some_and(|rest| rest.starts_with("17h"))
                || (name.starts_with("_R") && name.ends_with(&format!("_{path}")))
        }
    };
    // Every function of a module.
    let rust_module = |path: &'static str| {
        move |name: &str| {
            name.strip_prefix("_ZN")
                .is_some_and(|n| n.starts_with(path))
                || (name.starts_with("_R") && name.contains(&format!("_{path}")))
        }
    };
    let start_up: [(Named, &str); 4] = [
        (&c_name("main"), "main"),
        (&c_name("_start"), "_start"),
        (&rust_fn("6clines7runtime3run"), "clines::runtime::run"),
        (&rust_fn("6clines11clines_main"), "clines::clines_main"),
    ];
    for (named, what) in start_up {
        for address in find(named, what) {
            assert!(
                within(address),
                "{what} at {address:#x} is not in {ordered:?}"
            );
        }
    }
    let player = find(&rust_module("6clines2ai"), "in clines::ai");
    let outside = player.iter().filter(|&&address| !within(address)).count();
    assert_eq!(outside, player.len(), "the player's code is in {ordered:?}");
}
