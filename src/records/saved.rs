//! A game saved to go on with later: one file per user and rule set in the
//! records directory, next to the user's record, named
//! `<user>.w9.t9.c5.i5.n3.N3.off.game` for the default rules without a
//! preview. The `.game` extension keeps it out of record scans.
//!
//! A save replaces the file atomically, the way a record is replaced and
//! under the same directory lock (a temporary file, fsynced, renamed over
//! it), so a crash leaves the old save or the new one. A file that
//! cannot be read back as a game of these rules is reported and set aside
//! under a `.bad` name (`.bad.1`, `.bad.2`, … when that is taken, so that
//! no earlier one is lost), never in the way of a new game.

use std::fs::{self, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::board::{self, Color, Pos};
use crate::files;
use crate::game::{Game, GameState, Planned, Preview, Rules};
use crate::text::{self, TomlProblem};

use super::format::refused_symlink;
use super::lookup::NoScoreDir;
use super::store::{DirLock, LockWait, SaveError, Store, replace_atomically};

/// What the first line of every save says, so that another program's file
/// (or a future format) is known for what it is.
const FORMAT: &str = "clines saved game 1";
/// The largest save read under any rules: far above the 1 MB of a
/// 1000 × 1000 board with a short planned throw. A throw of up to a
/// million chips planned may take more ([`max_save_bytes`]).
const SAVE_CAP_FLOOR: u64 = 8 << 20;
/// How a save's file name ends.
pub(super) const SAVE_EXTENSION: &str = ".game";
/// A save's permissions: the player's alone.
const SAVE_MODE: u32 = 0o600;
/// How many names a bad save may try (`.bad`, `.bad.1`, …) before it is
/// left where it is: a bound on the search, far above any real count.
const MAX_BAD_COPIES: u32 = 10_000;

/// A game to go on with: the engine's state and what the front end must
/// remember about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// The engine's state.
    pub state: GameState,
    /// Why the game keeps no record, so that it still keeps none when it
    /// goes on, and the player is told the right reason.
    pub no_record: NoRecord,
}

/// Why a game keeps no record: each reason that applies. A game with none
/// of them keeps its record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoRecord {
    /// The built-in player helped (a hint or autoplay).
    pub helped: bool,
    /// A move was taken back.
    pub undone: bool,
    /// The game began from a fixed seed (`--seed`), so its throws can be
    /// known beforehand.
    pub seeded: bool,
}

impl NoRecord {
    /// Whether any reason applies.
    pub fn any(self) -> bool {
        self.helped || self.undone || self.seeded
    }
}

/// Where one user's saved game of one rule set lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveSlot {
    path: PathBuf,
    rules: Rules,
    preview: Preview,
}

/// What a save slot holds, with `G` what was made of a save read from it
/// ([`SaveSlot::occupant`]).
enum Occupant<G> {
    /// No save (or no records directory to hold one).
    Nothing,
    /// A game to go on with, as saved, and what was made of it.
    Game(SavedGame, G),
    /// A file no game can go on from here, and why: `damaged`, a save of
    /// this version's, of these rules, whose contents were spoilt since.
    Unusable { why: String, damaged: bool },
}

/// What became of a game saved only where it replaces no one else's
/// ([`SaveSlot::save_unless_taken`]).
#[derive(Debug)]
pub enum Placed {
    /// Saved.
    Saved,
    /// Saved, once the damaged save in its place was set aside.
    SavedOver(BadSave),
    /// Not saved, for this reason; what the slot holds is kept.
    Refused(String),
}

/// Why a game is not saved over another session's.
const TAKEN: &str = "another game of these rules is saved there, and is kept";

/// Why a save of other rules is refused (its name was changed by hand).
const OTHER_RULES: &str = "a game of other rules";

/// A save that could not be used, and where it was set aside.
#[derive(Debug)]
pub struct BadSave {
    /// The save file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub why: String,
    /// Where it now is, or `None` if it could not be moved.
    pub set_aside: Option<PathBuf>,
}

impl BadSave {
    /// What is wrong with the save and what became of it, without what
    /// follows (a new game), which a box before play says otherwise.
    pub fn what_became(&self) -> String {
        let aside = match &self.set_aside {
            Some(aside) => format!("it is kept as {}", text::path(aside)),
            None => "it could not be moved aside".to_string(),
        };
        format!(
            "the saved game {} cannot be resumed ({}); {aside}",
            text::path(&self.path),
            self.why
        )
    }
}

impl std::fmt::Display for BadSave {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}; a new game starts", self.what_became())
    }
}

/// The file's layout, as TOML.
#[derive(Debug, Serialize, Deserialize)]
struct SaveFile {
    format: String,
    width: usize,
    height: usize,
    colors: Color,
    line: usize,
    next: usize,
    first: usize,
    preview: String,
    score: u64,
    streak: u32,
    /// Whether the game keeps no record, for any reason. The first saves
    /// kept only this, and read as games the built-in player helped in; it
    /// is still written for the versions that read only this.
    assisted: bool,
    /// Why it keeps none; absent from the first saves.
    #[serde(default)]
    helped: bool,
    #[serde(default)]
    undone: bool,
    #[serde(default)]
    seeded: bool,
    /// The board, one string per row, in the headless `board` notation.
    board: Vec<String>,
    /// The generator's key, 64 hexadecimal digits.
    key: String,
    /// The generator's position, a decimal number (TOML integers stop at
    /// 2⁶³).
    word_pos: String,
    /// The planned throw: `"X Y C"`, or `"- - C"` for a chip with no cell.
    plan: Option<Vec<String>>,
}

impl SaveSlot {
    /// The slot of `store`'s user for `rules` and `preview`, or why the
    /// store has no directory to keep it in.
    pub fn new(store: &Store, rules: Rules, preview: Preview) -> Result<SaveSlot, NoScoreDir> {
        let name = format!(
            "{}.w{}.t{}.c{}.i{}.n{}.N{}.{preview}{SAVE_EXTENSION}",
            store.user(),
            rules.width,
            rules.height,
            rules.colors,
            rules.line,
            rules.next,
            rules.first
        );
        Ok(SaveSlot {
            path: store.dir().map_err(Clone::clone)?.join(name),
            rules,
            preview,
        })
    }

    /// The save file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The records directory that holds the save, whose lock saving takes.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    /// The saved game, and the game to go on with that the engine made of
    /// it while checking it, `Ok(None)` when there is none, also when the
    /// records directory is not a directory or cannot be reached (saving
    /// the record says so). One that cannot be used is moved aside and
    /// reported: under the records directory's lock, and only if it is
    /// still unusable then, since another game may have been saving there
    /// meanwhile. Where the lock cannot be had, it stays where it is.
    pub fn load(&self) -> Result<Option<(SavedGame, Game)>, BadSave> {
        let to_go_on = || self.occupant(|saved| checked(saved).map(Box::new));
        let first = to_go_on();
        if !matches!(first, Occupant::Unusable { .. }) {
            return self.loaded(first);
        }
        let lock = DirLock::acquire(self.dir(), LockWait::Usual);
        match to_go_on() {
            Occupant::Unusable { why, .. } if lock.is_err() => Err(BadSave {
                path: self.path.clone(),
                why,
                set_aside: None,
            }),
            occupant => self.loaded(occupant),
        }
    }

    /// What [`SaveSlot::load`] makes of `occupant`.
    fn loaded(&self, occupant: Occupant<Box<Game>>) -> Result<Option<(SavedGame, Game)>, BadSave> {
        match occupant {
            Occupant::Nothing => Ok(None),
            Occupant::Game(saved, game) => Ok(Some((saved, *game))),
            Occupant::Unusable { why, .. } => Err(self.set_aside(why)),
        }
    }

    /// What the slot holds, with `make`'s work made of a save read from it,
    /// or why that could not be made, which makes the save unusable.
    fn occupant<G>(&self, make: impl FnOnce(&SavedGame) -> Result<G, String>) -> Occupant<G> {
        let text = match read_limited(&self.path, max_save_bytes(&self.rules, self.preview)) {
            Ok(text) => text,
            Err(e) if is_absent(&e) => return Occupant::Nothing,
            Err(e) if refused_symlink(&e) && files::is_link(&self.path) => {
                let why = "it is a symbolic link, not followed".into();
                return Occupant::Unusable {
                    why,
                    damaged: false,
                };
            }
            // A loop of links on the way to the records directory, which
            // is told before play: no save can be there.
            Err(e) if refused_symlink(&e) => return Occupant::Nothing,
            // Nor where the file cannot even be looked up: whether a save
            // is there cannot be known, and the warning before play says
            // why ([`Store::unusable`]).
            Err(_) if cannot_be_looked_up(&self.path) => return Occupant::Nothing,
            Err(e) => {
                let why = format!("cannot read it: {e}");
                return Occupant::Unusable {
                    why,
                    damaged: false,
                };
            }
        };
        match self
            .parse(&text)
            .and_then(|saved| make(&saved).map(|made| (saved, made)))
        {
            Ok((saved, made)) => Occupant::Game(saved, made),
            Err(why) => Occupant::Unusable {
                // This version's own save, of these rules, that it wrote
                // whole (saves are replaced atomically) and that was
                // damaged since: no version can go on from it.
                damaged: text.contains(&format!("\"{FORMAT}\"")) && why != OTHER_RULES,
                why,
            },
        }
    }

    /// Saves `game` in place of any earlier save, atomically, under the
    /// records directory's lock as a record is.
    pub fn save(&self, game: &SavedGame) -> Result<(), SaveError> {
        self.save_if(game, LockWait::Usual, || true).map(|_| ())
    }

    /// Saves `game` unless the slot holds a game other than `owned`, the
    /// save this game went on from, if any: a game that another session
    /// saved there is not replaced, nor a file this version cannot read
    /// (a newer version's save, a link, one it may not read). A save of
    /// this version's that was damaged is set aside first, as loading it
    /// would set it aside. The directory's lock is waited for as `wait`
    /// says. What became of the game.
    pub fn save_unless_taken(
        &self,
        game: &SavedGame,
        owned: Option<&SavedGame>,
        wait: LockWait,
    ) -> Result<Placed, SaveError> {
        let mut placed = Placed::Saved;
        // `owned` was checked as it was loaded: a save still equal to it
        // is not made a game again, which on the largest boards takes tens
        // of milliseconds and a second game's memory. Any other is, as
        // loading it would, to tell a game from a damaged save.
        let ours = |now: &SavedGame| match owned {
            Some(owned) if now == owned => Ok(true),
            _ => checked(now).map(|_| false),
        };
        let saved = self.save_if(game, wait, || match self.occupant(ours) {
            Occupant::Nothing | Occupant::Game(_, true) => true,
            Occupant::Game(_, false) => {
                placed = Placed::Refused(TAKEN.to_string());
                false
            }
            Occupant::Unusable { why, damaged: true } => {
                let bad = self.set_aside(why);
                let moved = bad.set_aside.is_some();
                placed = if moved {
                    Placed::SavedOver(bad)
                } else {
                    Placed::Refused(format!(
                        "a damaged save there could not be moved aside ({}), and is kept",
                        bad.why
                    ))
                };
                moved
            }
            Occupant::Unusable { why, .. } => {
                placed = Placed::Refused(format!(
                    "the file there is not a save this game can replace ({why}), and is kept"
                ));
                false
            }
        })?;
        debug_assert_eq!(saved, !matches!(placed, Placed::Refused(_)));
        Ok(placed)
    }

    /// Saves `game` if `free` says the slot may take it, asked under the
    /// records directory's lock; whether it was saved.
    fn save_if(
        &self,
        game: &SavedGame,
        wait: LockWait,
        free: impl FnOnce() -> bool,
    ) -> Result<bool, SaveError> {
        let text = toml::to_string(&file_of(game)).map_err(|source| SaveError::Encoding {
            path: self.path.clone(),
            source,
        })?;
        let dir = self.dir();
        let lock = DirLock::acquire(dir, wait)?;
        lock.remove_stale_temps();
        if !free() {
            return Ok(false);
        }
        replace_atomically(&lock, &self.path, text.as_bytes(), SAVE_MODE).map(|()| true)
    }

    /// Removes the save, if any, as it stands: only under the lock, once it
    /// is known to be the game's own ([`SaveSlot::remove_if_unchanged`]).
    fn remove(&self) -> io::Result<()> {
        match fs::remove_file(&self.path) {
            Err(e) if !is_absent(&e) => Err(e),
            _ => Ok(()),
        }
    }

    /// Removes the save if it still holds `loaded` (as [`SaveSlot::load`]
    /// gave it): a game ending removes the save it went on from, never one
    /// that another game of the same rules made there since. Checked and
    /// removed under the records directory's lock, waited for as `wait`
    /// says, so that no save made meanwhile is taken for it.
    pub fn remove_if_unchanged(&self, loaded: &SavedGame, wait: LockWait) -> io::Result<()> {
        if !self.holds(loaded)? {
            return Ok(());
        }
        let dir = self.dir();
        // The cause alone: the error's own words are about a record.
        let _lock =
            DirLock::acquire(dir, wait).map_err(|e| io::Error::other(e.cause().to_string()))?;
        if self.holds(loaded)? {
            self.remove()
        } else {
            Ok(())
        }
    }

    /// Whether the save holds `loaded`: as it was loaded, so a game the
    /// engine made, and not made one again.
    fn holds(&self, loaded: &SavedGame) -> io::Result<bool> {
        match read_limited(&self.path, max_save_bytes(&self.rules, self.preview)) {
            Ok(text) => Ok(self.parse(&text).is_ok_and(|now| now == *loaded)),
            // Not a save this game could have loaded: someone else's.
            Err(e) if is_absent(&e) || e.kind() == io::ErrorKind::InvalidData => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Moves an unusable save out of the way, to `<name>.bad`, or when
    /// that is taken by an earlier bad save, to the first free name of
    /// `<name>.bad.1`, `<name>.bad.2`, …: no copy is ever replaced.
    fn set_aside(&self, why: String) -> BadSave {
        let mut set_aside = None;
        for n in 0..MAX_BAD_COPIES {
            let mut aside = self.path.clone().into_os_string();
            aside.push(".bad");
            if n > 0 {
                aside.push(format!(".{n}"));
            }
            let aside = PathBuf::from(aside);
            match move_to_new_name(&self.path, &aside) {
                Ok(()) => {
                    set_aside = Some(aside);
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(_) => break,
            }
        }
        BadSave {
            path: self.path.clone(),
            why,
            set_aside,
        }
    }

    /// The game in `text`, which must be a save of this slot's rules, as
    /// far as the file alone can tell: [`checked`] tells the rest.
    fn parse(&self, text: &str) -> Result<SavedGame, String> {
        let file: SaveFile = toml::from_str(text).map_err(|e| {
            if text.contains(FORMAT) {
                let problem = TomlProblem::new(&e, text);
                format!("damaged{}: {}", problem.at(), problem.why())
            } else {
                "not a clines saved game".to_string()
            }
        })?;
        if file.format != FORMAT {
            return Err(format!(
                "an unknown format, {}, where this version reads {}",
                text::quote(&file.format),
                text::quote(FORMAT)
            ));
        }
        let rules = Rules {
            width: file.width,
            height: file.height,
            colors: file.colors,
            line: file.line,
            next: file.next,
            first: file.first,
        };
        let preview: Preview = file
            .preview
            .parse()
            .map_err(|why| format!("preview {}: {why}", text::quote(&file.preview)))?;
        if rules != self.rules || preview != self.preview {
            return Err(OTHER_RULES.into());
        }
        let state = GameState {
            rules,
            preview,
            cells: cells(&file.board, &rules)?,
            score: file.score,
            streak: file.streak,
            over: false,
            key: key(&file.key)?,
            word_pos: file.word_pos.parse().map_err(|_| {
                format!(
                    "generator position {}, where a whole number is expected",
                    text::quote(&file.word_pos)
                )
            })?,
            plan: file.plan.as_deref().map(plan).transpose()?,
        };
        // A save that names no reason comes from the first version, which
        // read its one flag as help from the built-in player.
        let named = file.helped || file.undone || file.seeded;
        Ok(SavedGame {
            state,
            no_record: NoRecord {
                helped: file.helped || (file.assisted && !named),
                undone: file.undone,
                seeded: file.seeded,
            },
        })
    }
}

/// The game to go on with that the engine makes of `saved`, or why it
/// makes none: the check of what the file alone cannot tell, that the
/// state is one a game can be in. The game is kept where it is played,
/// since on a large board making it costs a good part of reading the file.
fn checked(saved: &SavedGame) -> Result<Game, String> {
    Game::from_state(saved.state.clone())
}

/// The file for `game`.
fn file_of(game: &SavedGame) -> SaveFile {
    let state = &game.state;
    let rules = state.rules;
    SaveFile {
        format: FORMAT.into(),
        width: rules.width,
        height: rules.height,
        colors: rules.colors,
        line: rules.line,
        next: rules.next,
        first: rules.first,
        preview: state.preview.to_string(),
        score: state.score,
        streak: state.streak,
        assisted: game.no_record.any(),
        helped: game.no_record.helped,
        undone: game.no_record.undone,
        seeded: game.no_record.seeded,
        board: state
            .cells
            .chunks(rules.width)
            .map(|row| row.iter().map(|&c| board::color_char(c)).collect())
            .collect(),
        key: state.key.iter().map(|b| format!("{b:02x}")).collect(),
        word_pos: state.word_pos.to_string(),
        plan: state.plan.as_ref().map(|plan| {
            plan.iter()
                .map(|p| match p.pos {
                    Some(pos) => format!("{} {} {}", pos.x, pos.y, p.color),
                    None => format!("- - {}", p.color),
                })
                .collect()
        }),
    }
}

/// The board's cells from its rows.
fn cells(rows: &[String], rules: &Rules) -> Result<Vec<Color>, String> {
    if rows.len() != rules.height || rows.iter().any(|r| r.chars().count() != rules.width) {
        return Err(format!(
            "a board that is not {}x{}",
            rules.width, rules.height
        ));
    }
    rows.iter()
        .flat_map(|row| row.chars())
        .map(|c| {
            board::color_of_char(c).ok_or_else(|| {
                format!(
                    "{} on the board, where '.' and the colours 1-9 and a-z are accepted",
                    text::quote(&c.to_string())
                )
            })
        })
        .collect()
}

/// The generator's key from 64 hexadecimal digits.
fn key(hex: &str) -> Result<[u8; 32], String> {
    let bad = || {
        format!(
            "generator key {}, where 64 hexadecimal digits are expected",
            text::quote(hex)
        )
    };
    if hex.len() != 64 || !hex.is_ascii() {
        return Err(bad());
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Ok(key)
}

/// The planned throw from its entries.
fn plan(entries: &[String]) -> Result<Vec<Planned>, String> {
    entries
        .iter()
        .map(|entry| {
            let bad = || {
                format!(
                    "planned chip {}, where \"X Y C\" or \"- - C\" (whole numbers) is expected",
                    text::quote(entry)
                )
            };
            let words: Vec<&str> = entry.split(' ').collect();
            let [x, y, c] = words[..] else {
                return Err(bad());
            };
            let color = c.parse().map_err(|_| bad())?;
            let pos = match (x, y) {
                ("-", "-") => None,
                _ => Some(Pos::new(
                    x.parse().map_err(|_| bad())?,
                    y.parse().map_err(|_| bad())?,
                )),
            };
            Ok(Planned { color, pos })
        })
        .collect()
}

/// Whether `e`, from opening or removing a save, means that there is none:
/// no such file, or a records directory (or one above it) that is not a
/// directory, where no save can be.
fn is_absent(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
    )
}

/// Whether no file at `path` can be looked up: its directory may not be
/// entered, or the path is none a file can have (a NUL in it, a name too
/// long).
fn cannot_be_looked_up(path: &Path) -> bool {
    fs::symlink_metadata(path).is_err_and(|e| {
        matches!(
            e.kind(),
            io::ErrorKind::PermissionDenied | io::ErrorKind::InvalidInput
        ) || e.raw_os_error() == Some(libc::ENAMETOOLONG)
    })
}

/// The file at `path` as text, refusing one larger than any save, and not
/// following a symlink or hanging on a planted FIFO.
fn read_limited(path: &Path, cap: u64) -> io::Result<String> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "not a file"));
    }
    files::read_text_within(file, cap, || {
        format!("it is larger than {cap} bytes, more than any save")
    })
}

/// The largest save read for `rules` and `preview`: above the largest
/// file [`file_of`] writes for them, so that every game saved loads
/// again, and no higher than that needs, so that reading stays in
/// proportion to the game. A row takes its cells and its quoting, a
/// planned chip at most `"999 999 35", `; 32 bytes each leave room for a
/// layout of one a line.
fn max_save_bytes(rules: &Rules, preview: Preview) -> u64 {
    const HEADER: u64 = 4096;
    const PER_ENTRY: u64 = 32;
    let rows = rules.height as u64 * (rules.width as u64 + PER_ENTRY);
    let planned = match preview {
        Preview::Off => 0,
        Preview::Colors | Preview::Cells => rules.next as u64 * PER_ENTRY,
    };
    SAVE_CAP_FLOOR.max(HEADER + rows + planned)
}

/// Moves `from` to `to`, failing with [`io::ErrorKind::AlreadyExists`]
/// when something is at `to`: a rename would replace it. A hard link
/// makes the new name only if it is free, even with another process at
/// the same work; on a file system without hard links (or for a directory)
/// the name is looked at first and then renamed to.
fn move_to_new_name(from: &Path, to: &Path) -> io::Result<()> {
    match fs::hard_link(from, to) {
        Ok(()) => fs::remove_file(from),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
        Err(_) => match fs::symlink_metadata(to) {
            Ok(_) => Err(io::ErrorKind::AlreadyExists.into()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => fs::rename(from, to),
            Err(e) => Err(e),
        },
    }
}

#[cfg(test)]
mod tests {
    use proptest::collection::vec;
    use proptest::prelude::*;
    use proptest::sample::{Index, select};

    use super::*;
    use crate::game::strategies;
    use crate::records::test_util::{damage, damaged, permissions_apply, temp_dir};
    use std::os::unix::fs::PermissionsExt;

    /// The saved game [`SaveSlot::load`] finds in `slot`, without the game
    /// made of it.
    fn saved_in(slot: &SaveSlot) -> Result<Option<SavedGame>, BadSave> {
        slot.load().map(|found| found.map(|(saved, _)| saved))
    }

    /// A save, like a record, clears what saves cut short by a crash left.
    #[test]
    fn a_save_removes_the_temporary_files_of_interrupted_saves() {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Off);
        let name = slot.path().file_name().unwrap().to_str().unwrap();
        let stale = format!(".{name}.4000000.0.tmp");
        fs::write(dir.path().join(&stale), "half a save").unwrap();
        let game = SavedGame {
            state: played(Preview::Off).state(),
            no_record: Default::default(),
        };
        slot.save(&game).unwrap();
        assert!(!dir.path().join(&stale).exists(), "{stale} left");
        assert!(slot.path().exists());
    }

    fn slot(dir: &Path, preview: Preview) -> SaveSlot {
        let store = Store::new(dir, "ann").unwrap();
        SaveSlot::new(&store, Rules::default(), preview).unwrap()
    }

    fn played(preview: Preview) -> Game {
        let (mut game, _) = Game::with_preview(Rules::default(), preview, 21);
        for _ in 0..4 {
            let from = game.board().chips().next().unwrap().pos;
            let to = game
                .board()
                .empty_cells()
                .find(|&to| game.check_move(from, to).is_ok())
                .unwrap();
            game.play(from, to).unwrap();
        }
        game
    }

    #[test]
    fn a_saved_game_comes_back_the_same_and_plays_on_the_same() {
        let dir = tempfile::tempdir().unwrap();
        for preview in [Preview::Off, Preview::Colors, Preview::Cells] {
            let slot = slot(dir.path(), preview);
            assert_eq!(saved_in(&slot).unwrap(), None);
            let game = played(preview);
            let saved = SavedGame {
                state: game.state(),
                no_record: NoRecord {
                    helped: preview == Preview::Off,
                    undone: preview == Preview::Colors,
                    seeded: preview != Preview::Colors,
                },
            };
            slot.save(&saved).unwrap();
            assert!(
                slot.path()
                    .ends_with(format!("ann.w9.t9.c5.i5.n3.N3.{preview}.game"))
            );
            // Nobody else may read it, whatever the umask lets through.
            let mode = fs::metadata(slot.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "{mode:o}");
            assert_eq!(saved_in(&slot).unwrap(), Some(saved));
            slot.remove().unwrap();
            assert_eq!(saved_in(&slot).unwrap(), None);
            slot.remove().unwrap();
        }
        // Only the saves were written, and no temporary file is left.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn each_reason_for_no_record_comes_back_and_a_first_save_still_loads() {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Off);
        let state = played(Preview::Off).state();
        let reasons = [
            NoRecord::default(),
            NoRecord {
                helped: true,
                ..NoRecord::default()
            },
            NoRecord {
                undone: true,
                ..NoRecord::default()
            },
            NoRecord {
                seeded: true,
                ..NoRecord::default()
            },
        ];
        for no_record in reasons {
            let saved = SavedGame {
                state: state.clone(),
                no_record,
            };
            slot.save(&saved).unwrap();
            let text = fs::read_to_string(slot.path()).unwrap();
            // Versions that read only the one flag still keep no record.
            assert!(
                text.contains(&format!("assisted = {}\n", no_record.any())),
                "{text}"
            );
            assert_eq!(saved_in(&slot).unwrap(), Some(saved));
        }
        // A save of the first format, with the one flag alone, resumes as
        // it did: a flagged game as one the built-in player helped in.
        for (assisted, no_record) in [(false, reasons[0]), (true, reasons[1])] {
            let mut file = file_of(&SavedGame {
                state: state.clone(),
                no_record: NoRecord::default(),
            });
            file.assisted = assisted;
            let text: String = toml::to_string(&file)
                .unwrap()
                .lines()
                .filter(|line| {
                    !["helped", "undone", "seeded"]
                        .iter()
                        .any(|key| line.starts_with(&format!("{key} = ")))
                })
                .map(|line| format!("{line}\n"))
                .collect();
            assert!(!text.contains("seeded"), "{text}");
            fs::write(slot.path(), &text).unwrap();
            assert_eq!(
                saved_in(&slot).unwrap(),
                Some(SavedGame {
                    state: state.clone(),
                    no_record,
                })
            );
        }
    }

    #[test]
    fn no_save_is_found_where_the_save_cannot_be_looked_up() {
        let dir = tempfile::tempdir().unwrap();
        // A path no file can have, as a config file's score_dir may give.
        let nul = slot(&dir.path().join("a\0b"), Preview::Off);
        assert_eq!(saved_in(&nul).unwrap(), None);
        // A records directory that may not be entered: permission bits do
        // not stop root, so this part is checked only where they apply.
        let locked = dir.path().join("locked");
        let slot = slot(&locked, Preview::Off);
        fs::create_dir(&locked).unwrap();
        if permissions_apply(dir.path()) {
            fs::set_permissions(&locked, fs::Permissions::from_mode(0o600)).unwrap();
            let found = saved_in(&slot);
            let told = Store::new(&locked, "ann").unwrap().unusable();
            fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
            assert_eq!(found.unwrap(), None);
            let told = told.expect("a warning before play");
            assert!(told.contains("cannot be reached"), "{told}");
        }
        // A save there that cannot be read is one, and is told.
        fs::write(slot.path(), "x").unwrap();
        if permissions_apply(dir.path()) {
            fs::set_permissions(slot.path(), fs::Permissions::from_mode(0o000)).unwrap();
            let unread = saved_in(&slot).unwrap_err().to_string();
            assert!(unread.contains("cannot read it"), "{unread}");
        }
    }

    /// Saves gone wrong in every way a load tells, each with what its
    /// message must say: made from the `good` text of a save.
    fn corrupt_saves(good: &str) -> Vec<(String, &'static str)> {
        // The first character of the board's first row.
        let row = good.find("board = [").unwrap();
        let first = row + good[row..].find('"').unwrap() + 1;
        let bad_chip = |chip: &str| {
            let mut text = good.to_string();
            text.replace_range(first..first + 1, chip);
            text
        };
        vec![
            ("\u{0}\u{1}binary".to_string(), "not a clines saved game"),
            (
                good.replace(FORMAT, "clines saved game 9"),
                "an unknown format, \"clines saved game 9\", where this version reads \
                 \"clines saved game 1\"",
            ),
            (
                good.replace("preview = \"off\"", "preview = \"on\""),
                "preview \"on\": the preview must be off (nothing), colors or cells",
            ),
            (good.replace("width = 9", "width = 8"), "other rules"),
            (
                bad_chip("#"),
                "\"#\" on the board, where '.' and the colours",
            ),
            // A quote or backslash is escaped, not shown bare as `'''`.
            (bad_chip("'"), "\"'\" on the board"),
            (bad_chip("\\\\"), "\"\\\\\" on the board"),
            (
                good.replace("word_pos = \"", "word_pos = \"x"),
                "generator position \"x",
            ),
            // A position past the end of the generator's stream.
            (
                good.replace(
                    "word_pos = \"",
                    "word_pos = \"295147905179352825856\"\n# \"",
                ),
                "generator position 295147905179352825856, where the positions are 0 to \
                 295147905179352825855",
            ),
            (
                good.replace("key = \"", "key = \"zz"),
                "where 64 hexadecimal digits are expected",
            ),
            (
                format!("{good}plan = [\"1 2\"]\n"),
                "planned chip \"1 2\", where \"X Y C\" or \"- - C\"",
            ),
            // A long value is cut, and a control character escaped.
            (
                good.replace(
                    "word_pos = \"",
                    &format!("word_pos = \"\\u001b{}", "7".repeat(300)),
                ),
                "generator position \"\\u{1b}7777",
            ),
            (good[..good.len() / 2].to_string(), "damaged"),
            // What is wrong is told as what a save holds, where it is.
            (
                good.replace("score = ", "score = \"x\"\n#"),
                "damaged at line 9: invalid type: string \"x\", \
                 expected a whole number, 0 or more",
            ),
            (
                good.replace("assisted = false", "assisted = 3"),
                "damaged at line 11: invalid type: integer `3`, expected true or false",
            ),
            (
                good.replace("width = 9", "width = 99999999999999999999"),
                "damaged at line 2: the number \"99999999999999999999\" is out of the \
                 range TOML holds",
            ),
        ]
        .into_iter()
        .chain(oversized_saves(good))
        .collect()
    }

    /// A good save made too large by a comment: what is read is not judged
    /// by its first part, and its size is what is wrong wherever the cut
    /// falls, within a letter of two bytes or between two.
    fn oversized_saves(good: &str) -> [(String, &'static str); 3] {
        let too_large = "larger than 8388608 bytes";
        let half = SAVE_CAP_FLOOR as usize / 2;
        [
            (format!("{good}#{}\n", "x".repeat(2 * half)), too_large),
            (format!("{good}#{}\n", "é".repeat(half)), too_large),
            (format!("{good}#x{}\n", "é".repeat(half)), too_large),
        ]
    }

    #[test]
    fn a_corrupt_or_foreign_save_is_set_aside_and_reported() {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Off);
        let good = toml::to_string(&file_of(&SavedGame {
            state: played(Preview::Off).state(),
            no_record: NoRecord::default(),
        }))
        .unwrap();
        for (text, says) in corrupt_saves(&good) {
            fs::write(slot.path(), &text).unwrap();
            let bad = saved_in(&slot).unwrap_err();
            let message = bad.to_string();
            assert!(message.contains(says), "{message}");
            assert!(message.contains("a new game starts"), "{message}");
            // Short, but for the save's two paths, as long as the
            // temporary directory makes them.
            let paths = 2 * slot.path().as_os_str().len() + ".bad".len();
            assert!(message.len() < 300 + paths, "{message}");
            let aside = bad.set_aside.expect("moved aside");
            assert_eq!(fs::read_to_string(&aside).unwrap(), text);
            assert!(!slot.path().exists());
            assert_eq!(saved_in(&slot).unwrap(), None, "nothing in the way now");
        }
    }

    /// The largest rules, with a throw of a million chips planned: the
    /// save is larger than the floor of the cap, and must load all the
    /// same.
    #[test]
    fn the_largest_game_saved_loads_again() {
        for preview in [Preview::Colors, Preview::Cells] {
            let dir = tempfile::tempdir().unwrap();
            let rules = Rules {
                width: 1000,
                height: 1000,
                colors: 35,
                line: 1000,
                next: 1_000_000,
                first: 3,
            };
            let store = Store::new(dir.path(), "ann").unwrap();
            let slot = SaveSlot::new(&store, rules, preview).unwrap();
            let (game, _) = Game::with_preview(rules, preview, 5);
            let saved = SavedGame {
                state: game.state(),
                no_record: NoRecord::default(),
            };
            slot.save(&saved).unwrap();
            let bytes = fs::metadata(slot.path()).unwrap().len();
            assert!(bytes > SAVE_CAP_FLOOR, "{preview}: {bytes} bytes");
            assert_eq!(saved_in(&slot).unwrap(), Some(saved), "{preview}");
        }
    }

    #[test]
    fn a_game_ending_leaves_a_save_it_could_not_have_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Off);
        let loaded = SavedGame {
            state: played(Preview::Off).state(),
            no_record: NoRecord::default(),
        };
        slot.save(&loaded).unwrap();
        // Asked while another save holds the directory, it waits for it.
        let held = DirLock::acquire(dir.path(), LockWait::Usual).unwrap();
        let error = slot
            .remove_if_unchanged(&loaded, LockWait::Usual)
            .unwrap_err()
            .to_string();
        assert!(error.contains("stayed locked"), "{error}");
        assert!(
            !error.contains("the record could not be saved"),
            "no record involved: {error}"
        );
        assert!(slot.path().exists(), "not removed unlocked");
        let at_once = slot.remove_if_unchanged(&loaded, LockWait::None);
        assert!(at_once.is_err(), "only tried, as the lock is held");
        let saving = slot.save_unless_taken(&loaded, Some(&loaded), LockWait::None);
        assert!(
            matches!(saving, Err(SaveError::Locked { .. })),
            "{saving:?}"
        );
        drop(held);
        slot.remove_if_unchanged(&loaded, LockWait::Usual).unwrap();
        assert!(!slot.path().exists(), "its own save goes");
        let too_large = vec![b'#'; SAVE_CAP_FLOOR as usize + 1];
        for foreign in [&b"\xff not text"[..], &too_large] {
            fs::write(slot.path(), foreign).unwrap();
            slot.remove_if_unchanged(&loaded, LockWait::Usual).unwrap();
            assert_eq!(fs::read(slot.path()).unwrap(), foreign, "left as it is");
        }
    }

    #[test]
    fn a_bad_save_names_its_files_escaped() {
        let bad = BadSave {
            path: PathBuf::from("/tmp/\x1b]0;x\x07/a.game"),
            why: "not TOML".to_string(),
            set_aside: Some(PathBuf::from("/tmp/\x1b]0;x\x07/a.game.bad")),
        };
        let message = bad.to_string();
        assert!(!message.chars().any(char::is_control), "{message:?}");
        assert!(message.contains("a.game.bad"), "{message}");
    }

    /// A damaged save is moved aside only under the directory's lock:
    /// while another game holds it (saving there, perhaps over the damaged
    /// file), the file stays where it is, and is reported.
    #[test]
    fn a_bad_save_is_moved_aside_only_under_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Off);
        fs::write(slot.path(), "damaged").unwrap();
        let held = DirLock::acquire(dir.path(), LockWait::Usual).unwrap();
        let bad = saved_in(&slot).unwrap_err();
        assert_eq!(bad.set_aside, None);
        assert_eq!(fs::read_to_string(slot.path()).unwrap(), "damaged");
        drop(held);
        let bad = saved_in(&slot).unwrap_err();
        let aside = bad.set_aside.expect("moved aside");
        assert_eq!(fs::read_to_string(aside).unwrap(), "damaged");
        assert!(!slot.path().exists());
    }

    /// A hand-edited save holding a complete line, which play would have
    /// removed, is refused, saying what is wrong and what is accepted, and
    /// kept aside whole.
    #[test]
    fn a_save_with_a_complete_line_is_refused_and_kept() {
        let edited = with_a_complete_line(&played_saved());
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Cells);
        fs::write(slot.path(), &edited).unwrap();
        let bad = saved_in(&slot).unwrap_err();
        let says = "a line of 5 or more chips of colour 1 through cell 0 4, where the board \
                    holds only shorter ones";
        assert!(bad.why.contains(says), "{:?} lacks {says:?}", bad.why);
        let aside = bad.set_aside.expect("moved aside");
        assert_eq!(fs::read_to_string(aside).unwrap(), edited, "kept whole");
    }

    /// A game saved where it replaces no one else's takes a save the
    /// engine refuses, though the file alone is a game's, for a damaged
    /// one, as loading it would: set aside and saved over, not kept as
    /// another game, whatever save the game went on from.
    #[test]
    fn a_save_with_a_complete_line_is_set_aside_by_a_game_saved_unless_taken() {
        let saved = played_saved();
        let edited = with_a_complete_line(&saved);
        for owned in [None, Some(&saved)] {
            let dir = tempfile::tempdir().unwrap();
            let slot = slot(dir.path(), Preview::Cells);
            fs::write(slot.path(), &edited).unwrap();
            let placed = slot.save_unless_taken(&saved, owned, LockWait::Usual);
            let Ok(Placed::SavedOver(bad)) = placed else {
                panic!("{owned:?}: {placed:?}");
            };
            assert!(bad.why.contains("a line of 5"), "{:?}", bad.why);
            let aside = bad.set_aside.expect("moved aside");
            assert_eq!(fs::read_to_string(aside).unwrap(), edited, "kept whole");
            assert_eq!(saved_in(&slot).unwrap(), Some(saved.clone()));
        }
    }

    /// A game of the default rules with a preview of cells, saved.
    fn played_saved() -> SavedGame {
        SavedGame {
            state: played(Preview::Cells).state(),
            no_record: NoRecord::default(),
        }
    }

    /// `saved`'s file with a line of five standing on the board: a file
    /// that reads as a game's, of a state no game can be in.
    fn with_a_complete_line(saved: &SavedGame) -> String {
        let text = toml::to_string(&file_of(saved)).unwrap();
        let mut file: SaveFile = toml::from_str(&text).unwrap();
        file.board[4] = "1111122..".into();
        toml::to_string(&file).unwrap()
    }

    /// A score past TOML's 2⁶³ − 1 is one this program writes itself (a
    /// game resumed near it plays on past it, as the score goes on to
    /// `u64::MAX`), so it reads it back rather than setting its own save
    /// aside; the record it keeps stops at 2⁶³ − 1 (`MOST_RECORDED`).
    #[test]
    fn a_save_with_a_score_past_toml_range_loads_and_saves_again() {
        let mut state = played(Preview::Cells).state();
        state.score = i64::MAX as u64 + 1;
        let saved = SavedGame {
            state,
            no_record: NoRecord::default(),
        };
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Cells);
        slot.save(&saved).unwrap();
        let text = fs::read_to_string(slot.path()).unwrap();
        assert!(text.contains("score = 9223372036854775808\n"), "{text}");
        assert_eq!(saved_in(&slot).unwrap(), Some(saved));
    }

    #[test]
    fn every_bad_save_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Off);
        let name = slot.path().file_name().unwrap().to_str().unwrap();
        let texts = ["first bad save", "second bad save", "third bad save"];
        for text in texts {
            fs::write(slot.path(), text).unwrap();
            saved_in(&slot).unwrap_err();
        }
        for (aside, text) in ["bad", "bad.1", "bad.2"].iter().zip(texts) {
            let aside = dir.path().join(format!("{name}.{aside}"));
            assert_eq!(fs::read_to_string(&aside).unwrap(), text, "{aside:?}");
        }
        // A gap left by a copy the player removed is filled first.
        fs::remove_file(dir.path().join(format!("{name}.bad.1"))).unwrap();
        fs::write(slot.path(), "fourth bad save").unwrap();
        let bad = saved_in(&slot).unwrap_err();
        let aside = dir.path().join(format!("{name}.bad.1"));
        assert_eq!(bad.set_aside.as_ref(), Some(&aside));
        assert!(bad.to_string().contains(".bad.1"), "{bad}");
        assert_eq!(fs::read_to_string(&aside).unwrap(), "fourth bad save");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3);
    }

    #[test]
    fn a_records_directory_that_is_a_file_holds_no_save() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        fs::write(&file, "").unwrap();
        for score_dir in [file.clone(), file.join("scores")] {
            let slot = slot(&score_dir, Preview::Off);
            assert_eq!(saved_in(&slot).unwrap(), None);
            slot.remove().unwrap();
        }
        assert_eq!(fs::read(&file).unwrap(), b"");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_bad_save_that_is_a_directory_is_moved_aside_too() {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Off);
        fs::create_dir(slot.path()).unwrap();
        let mut first = slot.path().as_os_str().to_owned();
        first.push(".bad");
        fs::write(&first, "an earlier bad save").unwrap();
        let bad = saved_in(&slot).unwrap_err();
        let aside = bad.set_aside.expect("moved aside");
        assert!(
            aside.to_str().unwrap().ends_with(".game.bad.1"),
            "{aside:?}"
        );
        assert!(aside.is_dir());
        assert_eq!(fs::read_to_string(&first).unwrap(), "an earlier bad save");
    }

    #[test]
    fn a_save_that_is_a_symlink_is_named_as_one_and_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot(dir.path(), Preview::Off);
        let elsewhere = dir.path().join("elsewhere");
        fs::write(&elsewhere, "not a save").unwrap();
        std::os::unix::fs::symlink(&elsewhere, slot.path()).unwrap();
        let bad = saved_in(&slot).unwrap_err();
        assert_eq!(bad.why, "it is a symbolic link, not followed");
        assert!(bad.set_aside.is_some());
        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), "not a save");
    }

    /// A records directory behind a loop of links holds no save: it is not
    /// the save that is a link, and there is nothing to set aside.
    #[test]
    fn a_records_directory_behind_a_loop_holds_no_save() {
        let dir = tempfile::tempdir().unwrap();
        let looped = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &looped).unwrap();
        let slot = slot(&looped, Preview::Off);
        assert_eq!(saved_in(&slot).unwrap(), None);
        let store = Store::new(&looped, "me").unwrap();
        let why = store.unusable().expect("told before play");
        assert!(why.contains("/loop: it cannot be reached: "), "{why}");
    }

    /// Rules of every kind on boards small enough to play on fast: few
    /// colours or all the board notation holds, short and long lines, no
    /// throw or several, and any preview.
    fn rules_and_preview() -> impl Strategy<Value = (Rules, Preview)> {
        let colors = prop_oneof![1u8..=8, Just(board::MAX_COLORS)];
        let rules = strategies::rules(
            3usize..=12,
            3usize..=12,
            colors,
            2usize..=6,
            0usize..=4,
            1usize..=6,
        );
        (rules, strategies::preview())
    }

    /// Any reasons for keeping no record.
    fn no_record() -> impl Strategy<Value = NoRecord> {
        (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(helped, undone, seeded)| {
            NoRecord {
                helped,
                undone,
                seeded,
            }
        })
    }

    /// The slot in `dir` of a game of `rules` and `preview`.
    fn slot_of(dir: &Path, rules: Rules, preview: Preview) -> SaveSlot {
        SaveSlot::new(&Store::new(dir, "ann").unwrap(), rules, preview).unwrap()
    }

    /// A legal move in `game`, looked for from the chip and the empty cell
    /// that `choice` picks; `None` when there is none.
    fn a_legal_move(game: &Game, choice: Index) -> Option<(Pos, Pos)> {
        let board = game.board();
        let chips: Vec<Pos> = board.chips().map(|chip| chip.pos).collect();
        let empty: Vec<Pos> = board.empty_cells().collect();
        if chips.is_empty() || empty.is_empty() {
            return None;
        }
        let (chip, cell) = (choice.index(chips.len()), choice.index(empty.len()));
        let targets = |from: Pos| {
            let cells = empty.iter().cycle().skip(cell).take(empty.len());
            cells.map(move |&to| (from, to))
        };
        let froms = chips.iter().cycle().skip(chip).take(chips.len());
        froms
            .flat_map(|&from| targets(from))
            .find(|&(from, to)| game.check_move(from, to).is_ok())
    }

    /// A game of `rules` from `seed` after a move for each of `choices`,
    /// stopped before one that would end it: a game a player could save.
    fn played_on(rules: Rules, preview: Preview, seed: u64, choices: &[Index]) -> Game {
        let (mut game, _) = Game::with_preview(rules, preview, seed);
        for &choice in choices {
            let Some((from, to)) = a_legal_move(&game, choice) else {
                break;
            };
            let mut next = game.clone();
            next.play(from, to).unwrap();
            if next.is_over() {
                break;
            }
            game = next;
        }
        game
    }

    /// What loading `text` in `slot` makes of it: the save and the game to
    /// go on with, or why there is none.
    fn loaded_from(slot: &SaveSlot, text: &str) -> Result<(SavedGame, Game), String> {
        let saved = slot.parse(text)?;
        let game = checked(&saved)?;
        Ok((saved, game))
    }

    /// Checks `saved`, which `slot` read from `text`: a game of the slot's
    /// rules, in a state play can reach, holding what the file says, that
    /// plays on (the move `choice` picks) and saves again.
    fn check_loaded(
        slot: &SaveSlot,
        text: &str,
        saved: &SavedGame,
        choice: Index,
    ) -> Result<(), TestCaseError> {
        let state = &saved.state;
        prop_assert_eq!(state.rules, slot.rules);
        prop_assert_eq!(state.preview, slot.preview);
        prop_assert!(!state.over);
        prop_assert_eq!(state.cells.len(), state.rules.cells());
        let colors = state.rules.colors;
        prop_assert!(
            state.cells.iter().all(|&c| c <= colors),
            "{:?}",
            state.cells
        );
        let file: SaveFile = toml::from_str(text).unwrap();
        prop_assert_eq!(state.score, file.score);
        prop_assert_eq!(state.streak, file.streak);
        let cells: String = state.cells.iter().map(|&c| board::color_char(c)).collect();
        prop_assert_eq!(file.board.concat(), cells);
        // Any reason the file gives keeps the game from keeping a record.
        let reasons = file.assisted || file.helped || file.undone || file.seeded;
        prop_assert_eq!(saved.no_record.any(), reasons);
        let mut game = Game::from_state(state.clone()).unwrap();
        prop_assert_eq!(&game.state(), state);
        // A board with a chip and an empty cell has a chip beside one.
        let (from, to) = a_legal_move(&game, choice).expect("a move to make");
        game.play(from, to).unwrap();
        if !game.is_over() {
            let again = SavedGame {
                state: game.state(),
                no_record: saved.no_record,
            };
            let text = toml::to_string(&file_of(&again)).unwrap();
            prop_assert_eq!(loaded_from(slot, &text).map(|(saved, _)| saved), Ok(again));
        }
        Ok(())
    }

    /// Why a save is refused, as a player is told: something, and no
    /// character that a terminal would take as a command.
    fn check_refusal(why: &str) -> Result<(), TestCaseError> {
        prop_assert!(!why.is_empty());
        prop_assert!(!why.chars().any(char::is_control), "{:?}", why);
        Ok(())
    }

    /// One field of a save given a value of its type, which a game may or
    /// may not have.
    #[derive(Clone, Debug)]
    enum FieldEdit {
        /// Width, height, colours, line, next or first, by its place in the
        /// file.
        Rule(usize, u64),
        Preview(&'static str),
        Score(u64),
        Streak(u32),
        /// Assisted, helped, undone or seeded, by its place in the file.
        Reason(usize, bool),
        /// A cell of the board, which the index picks.
        Cell(Index, char),
        Key(String),
        WordPos(String),
        Plan(Option<Vec<String>>),
        /// A planned chip, which the index picks.
        Planned(Index, String),
    }

    impl FieldEdit {
        fn apply(&self, file: &mut SaveFile) {
            match self {
                FieldEdit::Rule(rule, value) => {
                    let value = *value as usize;
                    match rule {
                        0 => file.width = value,
                        1 => file.height = value,
                        2 => file.colors = u8::try_from(value).unwrap_or(u8::MAX),
                        3 => file.line = value,
                        4 => file.next = value,
                        _ => file.first = value,
                    }
                }
                FieldEdit::Preview(preview) => file.preview = preview.to_string(),
                FieldEdit::Score(score) => file.score = *score,
                FieldEdit::Streak(streak) => file.streak = *streak,
                FieldEdit::Reason(reason, value) => {
                    let reasons = [
                        &mut file.assisted,
                        &mut file.helped,
                        &mut file.undone,
                        &mut file.seeded,
                    ];
                    *reasons.into_iter().nth(*reason).unwrap() = *value;
                }
                FieldEdit::Cell(at, cell) => {
                    let row = at.index(file.board.len());
                    let mut cells: Vec<char> = file.board[row].chars().collect();
                    let column = at.index(cells.len());
                    cells[column] = *cell;
                    file.board[row] = cells.into_iter().collect();
                }
                FieldEdit::Key(key) => file.key = key.clone(),
                FieldEdit::WordPos(word_pos) => file.word_pos = word_pos.clone(),
                FieldEdit::Plan(plan) => file.plan = plan.clone(),
                FieldEdit::Planned(at, entry) => {
                    if let Some(plan) = file.plan.as_mut().filter(|plan| !plan.is_empty()) {
                        let at = at.index(plan.len());
                        plan[at] = entry.clone();
                    }
                }
            }
        }
    }

    /// Any [`FieldEdit`], its value mostly near what a game has: few
    /// colours on the board, planned chips on or near it, a generator
    /// position within its stream.
    fn field_edit() -> impl Strategy<Value = FieldEdit> {
        let number = || prop_oneof![0u64..8, any::<u64>()];
        let cell = prop_oneof![
            3 => Just('.'),
            3 => select(&['1', '2', '3'][..]),
            1 => select(".123456789abcdefghijklmnopqrstuvwxyz#A ".chars().collect::<Vec<_>>()),
        ];
        let planned = prop_oneof![
            (0u64..8, 0u64..8, 0u64..8).prop_map(|(x, y, c)| format!("{x} {y} {c}")),
            (0u64..8).prop_map(|c| format!("- - {c}")),
            "[-0-9 ]{0,8}",
        ];
        let word_pos = prop_oneof![
            (0u64..1000).prop_map(|n| n.to_string()),
            any::<u128>().prop_map(|n| n.to_string()),
            "[-+0-9a-x]{0,5}",
        ];
        prop_oneof![
            (0usize..6, number()).prop_map(|(rule, value)| FieldEdit::Rule(rule, value)),
            select(&["off", "colors", "cells", "x"][..]).prop_map(FieldEdit::Preview),
            number().prop_map(FieldEdit::Score),
            prop_oneof![0u32..4, any::<u32>()].prop_map(FieldEdit::Streak),
            (0usize..4, any::<bool>()).prop_map(|(reason, value)| FieldEdit::Reason(reason, value)),
            (any::<Index>(), cell).prop_map(|(at, cell)| FieldEdit::Cell(at, cell)),
            prop_oneof!["[0-9a-fA-F]{64}", "[0-9A-Fa-z]{62,66}"].prop_map(FieldEdit::Key),
            word_pos.prop_map(FieldEdit::WordPos),
            proptest::option::of(vec(planned.clone(), 0..=5)).prop_map(FieldEdit::Plan),
            (any::<Index>(), planned).prop_map(|(at, entry)| FieldEdit::Planned(at, entry)),
        ]
    }

    /// Text made of the parts of a save, in any order.
    fn save_like_text() -> impl Strategy<Value = String> {
        "(format = \"clines saved game 1\"\n|score|board|=|\\[|\\]|\"|[.1-9]{1,9}|\n| )*"
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        /// A save edited by hand, cut short or corrupted either loads as a
        /// game of its rules that plays on and holds what the file says, or
        /// is refused, saying why, and set aside whole: never a panic.
        #[test]
        fn a_damaged_save_loads_as_a_game_that_plays_on_or_is_set_aside(
            (rules, preview) in rules_and_preview(),
            seed in any::<u64>(),
            choices in vec(any::<Index>(), 0..12),
            no_record in no_record(),
            damage in vec(damage(), 1..4),
            choice in any::<Index>(),
        ) {
            let game = played_on(rules, preview, seed, &choices);
            prop_assume!(!game.is_over());
            let saved = SavedGame { state: game.state(), no_record };
            let bytes = damaged(toml::to_string(&file_of(&saved)).unwrap().as_bytes(), &damage);
            let dir = temp_dir();
            let slot = slot_of(dir.path(), rules, preview);
            fs::write(slot.path(), &bytes).unwrap();
            match saved_in(&slot) {
                Ok(Some(loaded)) => {
                    check_loaded(&slot, std::str::from_utf8(&bytes).unwrap(), &loaded, choice)?;
                }
                Ok(None) => prop_assert!(false, "the save was not found"),
                Err(bad) => {
                    check_refusal(&bad.why)?;
                    let aside = bad.set_aside.expect("moved aside");
                    prop_assert_eq!(fs::read(aside).unwrap(), bytes);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Whatever a save holds, any values in its fields or any text at
        /// all, reading it gives a game of its rules that plays on, or a
        /// reason.
        #[test]
        fn any_save_is_read_as_a_game_that_plays_on_or_refused_with_a_reason(
            (rules, preview) in rules_and_preview(),
            seed in any::<u64>(),
            choices in vec(any::<Index>(), 0..12),
            edits in vec(field_edit(), 0..3),
            text in prop_oneof![any::<String>(), save_like_text()],
            choice in any::<Index>(),
        ) {
            let game = played_on(rules, preview, seed, &choices);
            prop_assume!(!game.is_over());
            let saved = SavedGame { state: game.state(), no_record: NoRecord::default() };
            let mut file = file_of(&saved);
            for edit in &edits {
                edit.apply(&mut file);
            }
            let rules = Rules {
                width: file.width,
                height: file.height,
                colors: file.colors,
                line: file.line,
                next: file.next,
                first: file.first,
            };
            let preview = file.preview.parse().unwrap_or_default();
            let slot = slot_of(Path::new("/nowhere"), rules, preview);
            let edited = toml::to_string(&file).unwrap();
            for text in [&edited, &text] {
                match loaded_from(&slot, text) {
                    Ok((saved, _)) => check_loaded(&slot, text, &saved, choice)?,
                    Err(why) => check_refusal(&why)?,
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Any game, of any rules, saved after any moves, is read back as
        /// it was saved, and plays on as the game saved would have.
        #[test]
        fn any_game_saved_comes_back_the_same_and_plays_on_the_same(
            (rules, preview) in rules_and_preview(),
            seed in any::<u64>(),
            choices in vec(any::<Index>(), 0..20),
            no_record in no_record(),
            next in vec(any::<Index>(), 1..4),
        ) {
            let mut game = played_on(rules, preview, seed, &choices);
            prop_assume!(!game.is_over());
            let saved = SavedGame { state: game.state(), no_record };
            let slot = slot_of(Path::new("/nowhere"), rules, preview);
            let (loaded, mut resumed) =
                loaded_from(&slot, &toml::to_string(&file_of(&saved)).unwrap()).unwrap();
            prop_assert_eq!(&loaded, &saved);
            for choice in next {
                let Some((from, to)) = a_legal_move(&game, choice) else {
                    break;
                };
                prop_assert_eq!(resumed.play(from, to), game.play(from, to));
            }
            prop_assert_eq!(resumed.state(), game.state());
        }
    }
}
