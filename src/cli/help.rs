//! The texts `-h` prints around clap's list of options.

/// The original's synopsis, plus the options the clone adds.
pub(super) const SYNOPSIS: &str = "clines [-hlv] [-wN] [-tN] [-cN] [-iN] [-CS] [-fS] [-FS] [-m{c|b}] [-nN] [-NN] [-oC]\n              [-p MODE] [--cells SHAPE] [--new] [--seed S] [--autoplay] [--no-autoplay]\n              [--autoplay-delay MS]\n       clines --batch [-wN] [-tN] [-cN] [-iN] [-nN] [-NN] [-p MODE] [--seed S]\n       clines --completions bash|zsh|fish";

/// Where the `directories` crate puts the configuration on this system.
#[cfg(target_os = "macos")]
const CONFIG_DIR: &str = "~/Library/Application Support/clines/";
#[cfg(not(target_os = "macos"))]
const CONFIG_DIR: &str = "$XDG_CONFIG_HOME/clines/ (~/.config/clines/ when it is unset)";

/// Printed after the options by `-h`.
pub(super) fn after_help() -> String {
    format!(
        "\
Options not given on the command line are read from config.toml in
{CONFIG_DIR},
or from the file named by $CLINES_CONFIG. Each set of -w -t -c -i -n -N and
-p keeps its own records (-l with them lists that table); a game with --seed,
or with help (a hint, autoplay or an undo) keeps none.

Keys: arrows or h j k l move the cursor, space or Enter selects and moves a
chip, ? shows a hint, a starts or stops autoplay, u takes back a move, n
starts a new game, s saves the game and quits (clines resumes it), q quits,
F1 shows every key; -C keys win over Enter, ?, a, u, n, s and q.
Ctrl-Z suspends the whole job. The game draws on standard output, which must
be a terminal that can move its cursor; --batch plays without one.
See clines(6)."
    )
}
