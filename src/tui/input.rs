//! What each key and mouse event means to the game, in one place.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::cli::{AUTOPLAY_KEY, HINT_KEY, Keys, NEW_GAME_KEY, QUIT_KEY, SAVE_KEY, UNDO_KEY};

/// A direction the cursor moves in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// One cell left.
    Left,
    /// One cell down.
    Down,
    /// One cell up.
    Up,
    /// One cell right.
    Right,
}

/// What the player asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move the cursor one cell.
    Cursor(Dir),
    /// Select, deselect or move at the cursor.
    Act,
    /// A left-button release at screen `row`, `col`: act on the cell there.
    Click {
        /// Screen row, 0-based.
        row: usize,
        /// Screen column, 0-based.
        col: usize,
    },
    /// Redraw the whole screen.
    Repaint,
    /// Stop the program until the shell continues it (Ctrl-Z).
    Suspend,
    /// End the game (the quit key); on the help, a question or a notice,
    /// it only closes the box, as any key does.
    Quit,
    /// End the game, whatever is shown (Ctrl-C, Ctrl-\\).
    Interrupt,
    /// Ask the built-in player: select the chip it would move and put the
    /// cursor on its target.
    Hint,
    /// Start or stop the built-in player playing by itself.
    Autoplay,
    /// Take back the last move.
    Undo,
    /// Start a new game (after confirming, when points would be lost).
    NewGame,
    /// Show the keys and the scoring rule until the next key.
    Help,
    /// Save the game to go on with next time, and quit.
    SaveQuit,
    /// Any other key: ends a finished game, otherwise nothing.
    Other,
}

/// The actions for a terminal event, in order, given the `-C` keys: none
/// for events that mean nothing (key releases, mouse motion, other buttons,
/// resizes), and one for most others. A typed character that came with Alt
/// is two when Escape is a `-C` key: terminals send Alt and a character as
/// Escape followed by the character, which is also what pressing Escape
/// and then the character quickly sends, and the game has no use for Alt.
/// (Alt and an arrow or a function key comes as one sequence of its own,
/// and stays one key.)
pub fn actions_for(event: &Event, keys: &Keys) -> impl Iterator<Item = Action> + use<> {
    let escape_first = match event {
        Event::Key(key)
            if key.kind == KeyEventKind::Press
                && key.modifiers.contains(KeyModifiers::ALT)
                && typed_char(key.code).is_some()
                && keys.contains(ESCAPE) =>
        {
            Some(char_action(ESCAPE, keys))
        }
        _ => None,
    };
    escape_first.into_iter().chain(action_for(event, keys))
}

/// The action for a terminal event, Alt left aside; `None` for events that
/// mean nothing.
fn action_for(event: &Event, keys: &Keys) -> Option<Action> {
    match event {
        Event::Key(key) => key_action(key, keys),
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Up(MouseButton::Left),
            column,
            row,
            ..
        }) => Some(Action::Click {
            row: usize::from(*row),
            col: usize::from(*column),
        }),
        _ => None,
    }
}

fn key_action(key: &KeyEvent, keys: &Keys) -> Option<Action> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let action = match key.code {
        KeyCode::Left => Action::Cursor(Dir::Left),
        KeyCode::Down => Action::Cursor(Dir::Down),
        KeyCode::Up => Action::Cursor(Dir::Up),
        KeyCode::Right => Action::Cursor(Dir::Right),
        // Ctrl-\ arrives as Ctrl-4 from crossterm's parser.
        KeyCode::Char('c' | '\\' | '4') if ctrl => Action::Interrupt,
        KeyCode::Char('l') if ctrl => Action::Repaint,
        KeyCode::Char('z') if ctrl => Action::Suspend,
        _ if ctrl => Action::Other,
        KeyCode::F(1) => Action::Help,
        code => typed_char(code).map_or(Action::Other, |ch| char_action(ch, keys)),
    };
    Some(action)
}

/// Enter, as a typed character (and as a `-C` string spells it).
pub const ENTER: char = '\n';

/// Escape, as a typed character.
const ESCAPE: char = '\u{1b}';

/// A typed character: one of the `-C` keys, which win, else one of the
/// game's own keys, Enter acting as the action key does.
fn char_action(ch: char, keys: &Keys) -> Action {
    match ch {
        _ if ch == keys.left => Action::Cursor(Dir::Left),
        _ if ch == keys.down => Action::Cursor(Dir::Down),
        _ if ch == keys.up => Action::Cursor(Dir::Up),
        _ if ch == keys.right => Action::Cursor(Dir::Right),
        _ if ch == keys.act => Action::Act,
        QUIT_KEY => Action::Quit,
        HINT_KEY => Action::Hint,
        AUTOPLAY_KEY => Action::Autoplay,
        UNDO_KEY => Action::Undo,
        NEW_GAME_KEY => Action::NewGame,
        SAVE_KEY => Action::SaveQuit,
        // As in other Lines games; the original took space only.
        ENTER => Action::Act,
        _ => Action::Other,
    }
}

/// The character a key types, as a `-C` string would spell it: Tab,
/// Enter, Escape and Backspace included.
fn typed_char(code: KeyCode) -> Option<char> {
    match code {
        KeyCode::Char(ch) => Some(ch),
        KeyCode::Tab => Some('\t'),
        KeyCode::Enter => Some(ENTER),
        KeyCode::Esc => Some(ESCAPE),
        KeyCode::Backspace => Some('\u{7f}'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;

    const DEFAULT: Keys = crate::cli::DEFAULT_KEYS;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(code, modifiers))
    }

    /// The keys the help lists and the `-C` warning names are the keys
    /// the game acts on: each does something of its own, and no other
    /// letter of the default keys does.
    #[test]
    fn the_game_keys_listed_are_the_keys_acted_on() {
        let listed: Vec<Action> = crate::cli::GAME_KEYS
            .iter()
            .map(|game| char_action(game.key, &DEFAULT))
            .collect();
        for (i, action) in listed.iter().enumerate() {
            assert_ne!(*action, Action::Other, "{:?}", crate::cli::GAME_KEYS[i]);
            assert!(!listed[..i].contains(action), "{action:?} listed twice");
        }
        let acting: Vec<char> = (' '..='~')
            .filter(|&ch| !matches!(char_action(ch, &DEFAULT), Action::Other))
            .filter(|&ch| {
                ![
                    DEFAULT.left,
                    DEFAULT.down,
                    DEFAULT.up,
                    DEFAULT.right,
                    DEFAULT.act,
                ]
                .contains(&ch)
            })
            .collect();
        let mut keys: Vec<char> = crate::cli::GAME_KEYS.iter().map(|game| game.key).collect();
        keys.sort_unstable();
        assert_eq!(acting, keys);
    }

    fn plain(ch: char) -> Event {
        key(KeyCode::Char(ch), KeyModifiers::NONE)
    }

    #[test]
    fn arrows_and_letters() {
        assert_eq!(
            action_for(&key(KeyCode::Left, KeyModifiers::NONE), &DEFAULT),
            Some(Action::Cursor(Dir::Left))
        );
        assert_eq!(
            action_for(&plain('j'), &DEFAULT),
            Some(Action::Cursor(Dir::Down))
        );
        assert_eq!(
            action_for(&plain('k'), &DEFAULT),
            Some(Action::Cursor(Dir::Up))
        );
        assert_eq!(
            action_for(&plain('l'), &DEFAULT),
            Some(Action::Cursor(Dir::Right))
        );
        assert_eq!(action_for(&plain(' '), &DEFAULT), Some(Action::Act));
        assert_eq!(action_for(&plain('x'), &DEFAULT), Some(Action::Other));
    }

    #[test]
    fn remapped_keys_and_q() {
        let keys = Keys::from(['a', 's', 'w', 'd', 'q']);
        assert_eq!(action_for(&plain('q'), &keys), Some(Action::Act));
        assert_eq!(action_for(&plain('h'), &keys), Some(Action::Other));
        assert_eq!(
            action_for(&plain('w'), &keys),
            Some(Action::Cursor(Dir::Up))
        );
        assert_eq!(action_for(&plain('q'), &DEFAULT), Some(Action::Quit));
        assert_eq!(
            action_for(&key(KeyCode::Up, KeyModifiers::NONE), &keys),
            Some(Action::Cursor(Dir::Up))
        );
    }

    #[test]
    fn game_keys_unless_remapped() {
        assert_eq!(action_for(&plain('?'), &DEFAULT), Some(Action::Hint));
        assert_eq!(action_for(&plain('a'), &DEFAULT), Some(Action::Autoplay));
        // Upper case is another key.
        assert_eq!(action_for(&plain('A'), &DEFAULT), Some(Action::Other));
        // The -C keys win.
        let keys = Keys::from(['a', 's', 'w', 'd', '?']);
        assert_eq!(
            action_for(&plain('a'), &keys),
            Some(Action::Cursor(Dir::Left))
        );
        assert_eq!(action_for(&plain('?'), &keys), Some(Action::Act));
        let keys = Keys::from(['h', 'j', '?', 'l', 'a']);
        assert_eq!(
            action_for(&plain('?'), &keys),
            Some(Action::Cursor(Dir::Up))
        );
        assert_eq!(action_for(&plain('a'), &keys), Some(Action::Act));
        assert_eq!(action_for(&plain('u'), &DEFAULT), Some(Action::Undo));
        assert_eq!(action_for(&plain('n'), &DEFAULT), Some(Action::NewGame));
        assert_eq!(action_for(&plain('s'), &DEFAULT), Some(Action::SaveQuit));
        let keys = Keys::from(['n', 'u', 'k', 'l', ' ']);
        assert_eq!(
            action_for(&plain('n'), &keys),
            Some(Action::Cursor(Dir::Left))
        );
        assert_eq!(
            action_for(&plain('u'), &keys),
            Some(Action::Cursor(Dir::Down))
        );
        // With the control key they are no longer those keys.
        let ctrl_a = key(KeyCode::Char('a'), KeyModifiers::CONTROL);
        assert_eq!(action_for(&ctrl_a, &DEFAULT), Some(Action::Other));
        // Enter acts as the action key does, unless -C makes it another.
        let enter = key(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(action_for(&enter, &DEFAULT), Some(Action::Act));
        assert_eq!(
            action_for(&enter, &Keys::from(['a', 's', 'w', 'd', 'x'])),
            Some(Action::Act)
        );
        assert_eq!(
            action_for(&enter, &Keys::from(['\n', 's', 'w', 'd', 'x'])),
            Some(Action::Cursor(Dir::Left))
        );
    }

    #[test]
    fn special_keys_as_characters() {
        let keys = Keys::from(['\t', 'j', 'k', 'l', '\n']);
        let special = |code| action_for(&key(code, KeyModifiers::NONE), &keys);
        assert_eq!(special(KeyCode::Tab), Some(Action::Cursor(Dir::Left)));
        assert_eq!(special(KeyCode::Enter), Some(Action::Act));
        assert_eq!(special(KeyCode::Esc), Some(Action::Other));
        assert_eq!(special(KeyCode::F(2)), Some(Action::Other));
        assert_eq!(special(KeyCode::F(1)), Some(Action::Help));
    }

    #[test]
    fn a_character_with_alt_is_escape_and_the_character_when_escape_is_a_remapped_key() {
        let alt = |code| key(code, KeyModifiers::ALT);
        let actions = |event: &Event, keys: &Keys| actions_for(event, keys).collect::<Vec<_>>();
        let (left, up) = (Action::Cursor(Dir::Left), Action::Cursor(Dir::Up));
        let escape_left = Keys::from([ESCAPE, 'j', 'k', 'l', ' ']);
        assert_eq!(actions(&alt(KeyCode::Char('k')), &escape_left), [left, up]);
        assert_eq!(
            actions(&key(KeyCode::Esc, KeyModifiers::NONE), &escape_left),
            [left]
        );
        // Escape does what -C says it does, whichever key it is.
        let escape_up = Keys::from(['h', 'j', ESCAPE, 'l', ' ']);
        assert_eq!(actions(&alt(KeyCode::Char('h')), &escape_up), [up, left]);
        let escape_acts = Keys::from(['h', 'j', 'k', 'l', ESCAPE]);
        assert_eq!(
            actions(&alt(KeyCode::Enter), &escape_acts),
            [Action::Act, Action::Act]
        );
        // Escape and Ctrl-C read together: Escape, then the interrupt.
        let ctrl_alt_c = key(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL | KeyModifiers::ALT,
        );
        assert_eq!(
            actions(&ctrl_alt_c, &escape_left),
            [left, Action::Interrupt]
        );
        // Alt and an arrow is one key, an arrow.
        assert_eq!(actions(&alt(KeyCode::Up), &escape_left), [up]);
        assert_eq!(actions(&alt(KeyCode::F(1)), &escape_left), [Action::Help]);
        // A release is nothing, Alt or not.
        let release = Event::Key(KeyEvent {
            code: KeyCode::Char('k'),
            modifiers: KeyModifiers::ALT,
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
        });
        assert_eq!(actions(&release, &escape_left), []);
        // Otherwise Alt is left aside, as the game has no use for it.
        assert_eq!(actions(&alt(KeyCode::Char('k')), &DEFAULT), [up]);
    }

    #[test]
    fn control_keys() {
        let ctrl = |ch| key(KeyCode::Char(ch), KeyModifiers::CONTROL);
        assert_eq!(action_for(&ctrl('c'), &DEFAULT), Some(Action::Interrupt));
        assert_eq!(action_for(&ctrl('4'), &DEFAULT), Some(Action::Interrupt));
        assert_eq!(action_for(&ctrl('\\'), &DEFAULT), Some(Action::Interrupt));
        assert_eq!(action_for(&ctrl('l'), &DEFAULT), Some(Action::Repaint));
        assert_eq!(action_for(&ctrl('z'), &DEFAULT), Some(Action::Suspend));
        // Ctrl-L is not the `l` key.
        assert_eq!(action_for(&ctrl('h'), &DEFAULT), Some(Action::Other));
    }

    #[test]
    fn only_presses_and_left_releases() {
        let release = Event::Key(KeyEvent {
            code: KeyCode::Char('h'),
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
        });
        assert_eq!(action_for(&release, &DEFAULT), None);
        let mouse = |kind| {
            Event::Mouse(MouseEvent {
                kind,
                column: 7,
                row: 3,
                modifiers: KeyModifiers::NONE,
            })
        };
        assert_eq!(
            action_for(&mouse(MouseEventKind::Up(MouseButton::Left)), &DEFAULT),
            Some(Action::Click { row: 3, col: 7 })
        );
        assert_eq!(
            action_for(&mouse(MouseEventKind::Down(MouseButton::Left)), &DEFAULT),
            None
        );
        assert_eq!(
            action_for(&mouse(MouseEventKind::Up(MouseButton::Right)), &DEFAULT),
            None
        );
        assert_eq!(action_for(&mouse(MouseEventKind::Moved), &DEFAULT), None);
        assert_eq!(action_for(&Event::Resize(10, 10), &DEFAULT), None);
    }
}
