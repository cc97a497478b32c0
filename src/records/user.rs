//! The player's name: the real user's, checked to be a safe file name.

use std::fmt;
use std::io;

use super::sys;
use crate::text;

/// Why records are off for this user.
#[derive(Debug)]
pub enum UserError {
    /// The user database has no entry for the real user id.
    Unknown {
        /// The real user id.
        uid: u32,
    },
    /// Looking the user id up failed.
    Lookup {
        /// The real user id.
        uid: u32,
        /// What went wrong.
        source: io::Error,
    },
    /// The name cannot safely be used as a file name.
    UnsafeName(String),
}

impl UserError {
    /// What is wrong with the user, without what it turns off.
    pub fn reason(&self) -> String {
        match self {
            UserError::Unknown { uid } => format!("user id {uid} has no user name"),
            UserError::Lookup { uid, source } => {
                format!("cannot look up the name of user id {uid}: {source}")
            }
            UserError::UnsafeName(name) => format!(
                "the user name {} is not a safe file name ({SAFE_NAMES})",
                text::quote(name)
            ),
        }
    }
}

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "records are off: {}", self.reason())
    }
}

impl std::error::Error for UserError {}

/// The name of the real user (not `$USER`, which anyone can set), checked
/// to be a safe file name.
pub fn current_user() -> Result<String, UserError> {
    let name = passwd_name(sys::real_uid())?;
    check_user_name(&name)?;
    Ok(name)
}

/// The user database's name for `uid`.
fn passwd_name(uid: u32) -> Result<String, UserError> {
    match sys::user_name(uid) {
        Ok(Some(name)) => Ok(name),
        Ok(None) => Err(UserError::Unknown { uid }),
        Err(source) => Err(UserError::Lookup { uid, source }),
    }
}

/// What [`check_user_name`] accepts, as messages say it.
pub(super) const SAFE_NAMES: &str =
    "letters, digits, '.', '_', '-' and '@' only, not starting with '.'";

/// Accepts names made of `[A-Za-z0-9._@-]` that do not start with `.`, so a
/// name can never climb out of the directory or hide as a dot file. The
/// `@` is for the `user@domain` names of directory services (SSSD).
pub fn check_user_name(name: &str) -> Result<(), UserError> {
    let safe_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@');
    if name.is_empty() || name.starts_with('.') || !name.chars().all(safe_char) {
        return Err(UserError::UnsafeName(name.to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_user_names() {
        for name in ["alice", "Bob_2", "a.b-c", "x", "0", "alice@corp.example"] {
            assert!(check_user_name(name).is_ok(), "{name}");
        }
        for name in ["", ".hidden", "..", "a/b", "a b", "é", "a\0b", "x*"] {
            let error = check_user_name(name).unwrap_err();
            assert!(
                error
                    .to_string()
                    .starts_with("records are off: the user name"),
                "{error}"
            );
        }
    }

    #[test]
    fn an_unsafe_name_is_quoted_escaped_and_cut() {
        let name = format!("\u{1b}]0;pwned\u{7}{}", "a".repeat(1000));
        let message = check_user_name(&name).unwrap_err().to_string();
        assert!(
            message.starts_with("records are off: the user name \"\\u{1b}]0;pwned\\u{7}aaa"),
            "{message}"
        );
        assert!(
            message.contains("a…\" is not a safe file name"),
            "{message}"
        );
        assert!(message.len() < 200, "{message}");
    }

    #[test]
    fn current_user_is_the_real_one() {
        let uid = sys::real_uid();
        let id = std::process::Command::new("id")
            .arg("-un")
            .output()
            .expect("id(1) runs");
        // In a container the uid may have no name; then both must say so.
        if !id.status.success() {
            assert!(matches!(passwd_name(uid), Err(UserError::Unknown { .. })));
            return;
        }
        let name = passwd_name(uid).unwrap();
        assert_eq!(String::from_utf8_lossy(&id.stdout).trim(), name);
        if check_user_name(&name).is_ok() {
            assert_eq!(current_user().unwrap(), name);
        }
    }
}
