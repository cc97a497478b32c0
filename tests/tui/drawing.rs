//! How the board, its chips, glyphs and colours are drawn at every size
//! and in every look (SPEC §5).

use super::*;

#[test]
fn board_100x50_full_mode_s5() {
    board_test(100, 50, 5, 1, &[]);
}

#[test]
fn board_80x24_mini_mode_s2() {
    board_test(80, 24, 2, 2, &[]);
}

#[test]
fn board_40x30_mini_mode_s3() {
    board_test(40, 30, 3, 3, &[]);
}

#[test]
fn board_61x57_full_mode_s6() {
    board_test(61, 57, 6, 4, &[]);
}

#[test]
fn board_120x80_full_mode_s8() {
    board_test(120, 80, 8, 5, &[]);
}

#[test]
fn board_5x4_at_60x30_full_mode_s7() {
    board_test(60, 30, 7, 6, &["-w5", "-t4"]);
}

#[test]
fn many_chips_in_seven_colours_full_and_mini() {
    // Seven colours use palette 7,1,2,3,4,5,6,8; 40 chips show most of them.
    let rules = ["-c7", "-N40"];
    let colors: std::collections::BTreeSet<u8> = batch(&rules, 7, &[])
        .cells
        .into_iter()
        .filter(|&c| c != 0)
        .collect();
    assert!(
        colors.len() >= 5,
        "too few colours to be a test: {colors:?}"
    );
    for (cols, rows) in [(100, 50), (80, 24)] {
        let look = Look::color(&[7, 1, 2, 3, 4, 5, 6, 8]);
        let (mut term, view) = start_with(cols, rows, 7, &rules, &[], look, |o| o);
        quit_and_check(&mut term, view.game.score);
    }
}

#[test]
fn palette_option_colours_chips_and_cursor() {
    let extra = ["-o", "9,10,11,12,13,14"];
    let look = Look::color(&[9, 10, 11, 12, 13, 14]);
    let (mut term, view) = start_with(100, 50, 8, &["-N30"], &extra, look, |o| o);
    quit_and_check(&mut term, view.game.score);
}

#[test]
fn score_on_the_top_border_in_full_and_mini_mode() {
    // Short lines of few colours: the opening throw itself scores.
    let rules = ["-i3", "-c3", "-N30"];
    let seed = (1..100)
        .find(|&seed| batch(&rules, seed, &[]).score > 0)
        .expect("an opening that scores");
    for (cols, rows) in [(100, 50), (80, 24)] {
        let (mut term, view) = start(cols, rows, seed, &rules, &[]);
        quit_and_check(&mut term, view.game.score);
    }
}

/// Starts a `-N30` game at `cols` × `rows` with `extra` options and
/// environment, expects it drawn with `look`, and quits.
fn look_test(cols: u16, rows: u16, seed: u64, extra: &[&str], env: &[(&str, &str)], look: Look) {
    let with_env = |options: Options| {
        env.iter()
            .fold(options, |options, &(key, value)| options.env(key, value))
    };
    let (mut term, view) = start_with(cols, rows, seed, &["-N30"], extra, look, with_env);
    quit_and_check(&mut term, view.game.score);
}

#[test]
fn black_and_white_mode_draws_the_bw_glyphs() {
    for (cols, rows) in [(100, 50), (40, 30), (80, 24)] {
        look_test(cols, rows, 9, &["-m", "b"], &[], Look::mono("*OoVvAa.'Zz"));
    }
}

#[test]
fn black_and_white_glyphs_from_the_command_line() {
    let font = "#aAbBcCdDeE";
    look_test(61, 57, 10, &["-mb", "-F", font], &[], Look::mono(font));
}

#[test]
fn no_color_means_black_and_white_unless_forced() {
    let no_color = [("NO_COLOR", "1")];
    look_test(100, 50, 11, &[], &no_color, Look::mono("*OoVvAa.'Zz"));
    look_test(
        100,
        50,
        11,
        &["-m", "c"],
        &no_color,
        Look::color(&[7, 1, 2, 3, 4, 5]),
    );
}

#[test]
fn terminals_of_fewer_than_eight_colours_get_black_and_white() {
    // terminfo: vt100 and xterm-mono have no colours, xterm has 8.
    let mono = Look::mono("*OoVvAa.'Zz");
    let color = Look::color(&[7, 1, 2, 3, 4, 5]);
    look_test(100, 50, 14, &[], &[("TERM", "vt100")], mono.clone());
    look_test(100, 50, 14, &[], &[("TERM", "xterm-mono")], mono);
    look_test(100, 50, 14, &[], &[("TERM", "xterm")], color.clone());
    look_test(100, 50, 14, &["-mc"], &[("TERM", "vt100")], color.clone());
    // No entry at all (a newer emulator reached over ssh): colour.
    let unknown = [("TERM", "clines-no-such-terminal")];
    look_test(100, 50, 14, &[], &unknown, color);
}

/// A terminal that clears in its own default background, not the one set
/// (GNU screen's entry, without `bce`), shows the black screen all the
/// same: the game writes the blank cells, all but the bottom-right one, as
/// curses does. A terminal with `bce` gets the clear alone.
#[test]
fn without_back_colour_erase_the_blank_cells_are_written_black() {
    let (cols, rows) = (60, 30);
    for (term_name, bce) in [("screen", false), ("xterm-256color", true)] {
        let look = Look::color(&[7, 1, 2, 3, 4, 5]);
        let with_term = |options: Options| options.env("TERM", term_name);
        let (mut term, view) = start_with(cols, rows, 15, &[], &[], look, with_term);
        // The screen such a terminal shows: on a fresh one a clear changes
        // nothing, so the clears are taken out.
        let mut output = term.raw_output();
        while let Some(at) = output.windows(4).position(|w| w == b"\x1b[2J") {
            output.drain(at..at + 4);
        }
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(rows).unwrap(),
            std::num::NonZeroU16::new(cols).unwrap(),
            0,
        );
        parser.process(&output);
        let not_black: Vec<(u16, u16)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| parser.screen().cell(r, c).unwrap().bgcolor() != vt100::Color::Idx(0))
            .collect();
        if bce {
            assert!(
                not_black.len() > usize::from(cols),
                "{term_name}: {} not black",
                not_black.len()
            );
        } else {
            let first: Vec<_> = not_black.iter().take(8).collect();
            assert_eq!(not_black.len(), 1, "{term_name}: not black: {first:?}…");
            assert_eq!(not_black, [(rows - 1, cols - 1)], "{term_name}");
        }
        quit_and_check(&mut term, view.game.score);
    }
}

#[test]
fn colour_glyphs_from_the_command_line() {
    let mut look = Look::color(&[7, 1, 2, 3, 4, 5]);
    look.cursor = '+';
    look.chips = vec![('@', '.'); 5];
    for (cols, rows) in [(100, 50), (80, 24)] {
        look_test(cols, rows, 12, &["-f", "+@."], &[], look.clone());
    }
    // Glyphs are characters, whatever their length in UTF-8.
    look.cursor = '▒';
    look.chips = vec![('●', '∙'); 5];
    for (cols, rows) in [(100, 50), (80, 24)] {
        look_test(cols, rows, 12, &["-f", "▒●∙"], &[], look.clone());
    }
    let font = "▒●∙■□▲△◆◇★☆";
    for (cols, rows) in [(61, 57), (40, 30)] {
        look_test(cols, rows, 12, &["-mb", "-F", font], &[], Look::mono(font));
    }
}
