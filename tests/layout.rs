//! The binary's code layout on Linux with glibc: the code a start runs
//! comes first, in `.text.ordered` (see build.rs and
//! examples/linkorder.rs), read from the ELF section and symbol tables of
//! the built binary.

/// One section: its name, address and size.
#[derive(Debug)]
struct Section {
    name: String,
    kind: u32,
    address: u64,
    offset: usize,
    size: usize,
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
    fn functions(&self) -> Vec<(String, u64)> {
        const SYMTAB: u32 = 2;
        const FUNC: u8 = 2;
        let symtab = self
            .sections
            .iter()
            .find(|s| s.kind == SYMTAB)
            .expect("a symbol table (tests build an unstripped binary)");
        let strings = &self.sections[symtab.link];
        let bytes = &self.bytes[symtab.offset..symtab.offset + symtab.size];
        bytes
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
            .collect()
    }
}

/// The functions every start runs lie in `.text.ordered`, before `.text`;
/// the built-in player's, which no start runs, do not. Without the layout
/// (`CLINES_LINK_ORDER=off`, or a linker that takes no script) there is no
/// such section.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
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
    let functions = elf.functions();
    let find = |prefix: &str| -> Vec<u64> {
        let found: Vec<u64> = functions
            .iter()
            .filter(|(name, _)| name.starts_with(prefix))
            .map(|&(_, address)| address)
            .collect();
        assert!(!found.is_empty(), "no function named {prefix}…");
        found
    };
    for start_up in [
        "main",
        "_start",
        "_ZN6clines7runtime3run17h",
        "_ZN6clines11clines_main17h",
    ] {
        for address in find(start_up) {
            assert!(
                within(address),
                "{start_up} at {address:#x} is not in {ordered:?}"
            );
        }
    }
    let player = find("_ZN6clines2ai");
    let outside = player.iter().filter(|&&address| !within(address)).count();
    assert_eq!(outside, player.len(), "the player's code is in {ordered:?}");
}
