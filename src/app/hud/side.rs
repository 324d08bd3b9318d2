//! The side panel's drawing: [`side_panel`] reads the model and the status and returns what was
//! pressed. Its buttons sit above everything whose height changes (the status, the AI's progress,
//! the result, the move list), so they never move under the pointer; the status has a fixed height
//! of [`STATUS_LINES`] lines (longer text ends in "…" and shows whole on hover).

use bevy_egui::egui;

use super::action::{PanelAction, PanelIn};
use super::graph::graph_area;
use super::lesson::{lesson_controls, lesson_text};
use super::move_list::move_list;
use super::players::{players, result};
use super::review::{review_line, tool_buttons};
use super::windows::PanelWindows;
use crate::app::ai_task::Purpose;
use crate::app::files::Format;
use crate::app::flow::{Command, ReviewTo, Status};
use crate::app::games::AppGame;
use crate::app::model::Model;
use crate::app::ui::{RED, STATUS_LINES, UiRects, side_width};
use crate::rules::Player;

/// Draws the side panel (and the rules window and the confirmation) into `ctx`; returns the
/// panel's width in egui points and what was pressed. Named buttons' rectangles go to `rects`.
pub fn side_panel<G: AppGame>(
    ctx: &egui::Context,
    input: &PanelIn<G>,
    windows: &mut PanelWindows,
    rects: &mut UiRects,
) -> (f32, Vec<PanelAction<G::Move>>) {
    let model = input.model;
    let game = model.game();
    let mut actions = Vec::new();
    let mut root = crate::app::ui::root_ui(ctx, "hud");
    let width = side_width(ctx.content_rect().width());
    // A short window (1024×640) gives the status and the hint one line fewer, for the move list.
    let lines = if ctx.content_rect().height() < 700.0 { STATUS_LINES - 1 } else { STATUS_LINES };
    let frame = egui::Frame::side_top_panel(&ctx.global_style()).inner_margin(egui::Margin::symmetric(12, 10));
    let panel = egui::Panel::right("side").exact_size(width).resizable(false).frame(frame).show(&mut root, |panel| {
        // The content lives in a child of exactly the panel's area, clipped there: a row wider than
        // the panel (a long result table, a narrow window) is cut instead of pushing egui's panel
        // edge into the panel (the thin line once seen crossing it).
        let area = panel.available_rect_before_wrap();
        let mut child =
            panel.new_child(egui::UiBuilder::new().max_rect(area).layout(egui::Layout::top_down(egui::Align::Min)));
        child.set_clip_rect(area.intersect(panel.clip_rect()));
        panel.allocate_rect(area, egui::Sense::hover());
        let ui = &mut child;
        if lines < STATUS_LINES {
            // A short window: tighter rows, so the move list keeps three rows in view.
            ui.spacing_mut().item_spacing.y = 4.0;
            ui.spacing_mut().button_padding.y = 3.0;
        }
        ui.add_space(4.0);
        // Rules first, at the right; the subtitle is cut where the panel is narrow.
        let row = egui::vec2(ui.available_width(), ui.spacing().interact_size.y.max(30.0));
        ui.allocate_ui_with_layout(row, egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let gear = ui.add(egui::Button::new("⚙")).on_hover_text("Settings: colours, theme, animation, the AI");
            rects.set("settings", gear.rect);
            if gear.clicked() {
                actions.push(PanelAction::OpenSettings);
            }
            let label = if windows.rules { "Moves" } else { "Rules" };
            let button = egui::Button::new(label).min_size(egui::vec2(64.0, 0.0));
            if ui.add(button).on_hover_text("The rules or the move list, below").clicked() {
                windows.rules = !windows.rules;
            }
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                // A heading too long for the subtitle beside it ("Blokus Trigon" and "2 players")
                // is set smaller before the subtitle is cut.
                let (heading, subtitle) = (game.heading(), game.subtitle());
                let big = egui::TextStyle::Heading.resolve(ui.style());
                let body = egui::TextStyle::Body.resolve(ui.style());
                let width = |ui: &mut egui::Ui, text: &str, font: egui::FontId| {
                    ui.fonts_mut(|f| f.layout_no_wrap(text.to_string(), font, egui::Color32::WHITE).size().x)
                };
                let needed =
                    width(ui, &heading, big.clone()) + width(ui, &subtitle, body) + ui.spacing().item_spacing.x;
                let size = if needed <= ui.available_width() { big.size } else { big.size * 0.78 };
                ui.label(egui::RichText::new(heading).heading().size(size));
                ui.add(egui::Label::new(egui::RichText::new(&subtitle).weak()).truncate()).on_hover_text(subtitle);
            });
        });
        ui.separator();
        players(ui, model, input.online);
        ui.separator();
        if let Some(online) = input.online {
            let running = model.to_move().map(|p| p.0);
            let colours: Vec<&str> = (0..model.seats().len()).map(|s| game.player_name(Player(s as u8))).collect();
            super::online::online_box(ui, online, (running, model.over()), &colours, (windows, rects), &mut actions);
            ui.separator();
        }
        if let Some(learning) = input.lesson {
            // A lesson: its controls where the game's buttons stand, its text in the room left.
            lesson_controls(ui, learning, rects, &mut actions);
            ui.separator();
            status_area(ui, input.status, lines);
            game_actions(ui, model, &mut actions);
            ui.separator();
            if windows.rules {
                rules(ui, model);
            } else {
                lesson_text(ui, learning, rects);
            }
            return;
        }
        buttons(ui, input, windows, rects, &mut actions);
        ui.separator();
        match model.outcome() {
            // Over: the result first, then what was said; no hint and no game actions follow, so
            // nothing below can move under the pointer.
            Some(outcome) => {
                result(ui, model, &outcome, input.online, windows);
                status_area(ui, input.status, lines);
            }
            None => {
                status_area(ui, input.status, lines);
                progress_area(ui, input, lines, &mut actions);
                game_actions(ui, model, &mut actions);
            }
        }
        graph_area(ui, model, input.analyzing, &mut windows.graph_folded, &mut actions);
        ui.separator();
        // The rules take the move list's place in the panel, so they cover neither the board nor
        // Trigon's chooser.
        if windows.rules {
            rules(ui, model);
        } else {
            moves_header(ui, model, &mut windows.typed, rects, &mut actions);
            rects.set("move list", ui.available_rect_before_wrap());
            if let Some(ply) = move_list::<G>(ui, model) {
                actions.push(PanelAction::Order(Command::Review(ReviewTo::Ply(ply))));
            }
        }
    });
    let started = input.online.is_none_or(|o| o.started());
    super::confirm::confirm(ctx, (model, started), windows, rects, &mut actions);
    (panel.response.rect.width(), actions)
}

/// The game's own buttons for the person to move (Trike's Swap), if any.
fn game_actions<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>, actions: &mut Vec<PanelAction<G::Move>>) {
    if model.over() {
        return;
    }
    let mut moves = Vec::new();
    model.game().actions(ui, model.human_to_move(), &mut moves);
    actions.extend(moves.into_iter().map(PanelAction::Move));
}

/// The rules, scrolling, in the room left.
fn rules<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>) {
    ui.label(egui::RichText::new(format!("Rules of {}", model.game().display_name())).strong());
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, G::rules);
}

/// "Moves (n)" above the move list, the move box at its right (named "move box" in `rects`: a
/// move typed in the game's notation, sent on Enter), and the variations' menu when the game has
/// some.
fn moves_header<G: AppGame>(
    ui: &mut egui::Ui,
    model: &Model<G>,
    typed: &mut String,
    rects: &mut UiRects,
    actions: &mut Vec<PanelAction<G::Move>>,
) {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(format!("Moves ({})", model.line_len())).strong());
        // At the right, as wide as the room allows up to 110 points.
        let width = (ui.available_width() - 8.0).clamp(40.0, 110.0);
        ui.add_space((ui.available_width() - width - 8.0).max(0.0));
        {
            let may = model.person_may_move().is_ok();
            let field = egui::TextEdit::singleline(typed).hint_text(if may { "type a move" } else { "" });
            let response =
                ui.add_enabled_ui(may, |ui| ui.add_sized([width, ui.spacing().interact_size.y], field)).inner;
            let response = response.on_hover_text(format!(
                "Type a move in the game's notation and press Enter (as the move list writes it).\n{}",
                model.game().notation()
            ));
            rects.set("move box", response.rect);
            if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                let text = typed.trim().to_string();
                typed.clear();
                if !text.is_empty() {
                    actions.push(PanelAction::Text(text));
                }
                // The next move can be typed at once.
                response.request_focus();
            }
        }
    });
    if model.variations().is_empty() {
        return;
    }
    ui.horizontal(|ui| {
        ui.menu_button(format!("Variations ({})", model.variations().len()), |ui| {
            for (k, line) in model.variations().iter().enumerate() {
                let branch = model.line().iter().zip(line).take_while(|(a, b)| a == b).count();
                let label = format!("{}: leaves the line at move {}, {} moves", k + 1, branch + 1, line.len());
                if ui
                    .button(label)
                    .on_hover_text("Make this line the game's (the line now becomes a variation)")
                    .clicked()
                {
                    actions.push(PanelAction::Order(Command::SwitchLine(k)));
                }
            }
        })
        .response
        .on_hover_text("Lines the game left when a move was played where another had gone on");
    });
}

/// The buttons, in rows whose content never changes within a game (disabled, never hidden).
fn buttons<G: AppGame>(
    ui: &mut egui::Ui,
    input: &PanelIn<G>,
    windows: &mut PanelWindows,
    rects: &mut UiRects,
    actions: &mut Vec<PanelAction<G::Move>>,
) {
    let model = input.model;
    let mut button = |ui: &mut egui::Ui, name: &'static str, widget: egui::Button, enabled: bool, hover: &str| {
        let response = ui.add_enabled(enabled, widget).on_hover_text(hover);
        rects.set(name, response.rect);
        response.clicked()
    };
    // An online game has no takebacks, no New game and no second Rematch (the online box has
    // its own): its rows hold what it offers, for the whole game.
    let local = input.local();
    // Wrapped, so that a row never pushes the panel wider (it fits at the narrowest panel).
    ui.horizontal_wrapped(|ui| {
        if local
            && button(
                ui,
                "undo",
                egui::Button::new("⟲ Undo"),
                !model.moves().is_empty(),
                "Take back your last turn (Ctrl+Z)",
            )
        {
            actions.push(PanelAction::Order(Command::Undo));
        }
        if local
            && button(
                ui,
                "redo",
                egui::Button::new("⟳ Redo"),
                !model.redo().is_empty(),
                "Replay an undone turn (Ctrl+Y)",
            )
        {
            actions.push(PanelAction::Order(Command::Redo));
        }
        if button(ui, "save", egui::Button::new("Save"), true, "Save the game to the saved games' folder") {
            actions.push(PanelAction::Save(Format::Json));
        }
        if button(ui, "load", egui::Button::new("Load…"), true, "Open a saved game") {
            actions.push(PanelAction::OpenLoad);
        }
    });
    ui.horizontal(|ui| {
        let hover = if local {
            "Back to the start screen; Resume there brings this game back"
        } else {
            "Back to the start screen; the game goes on on the server, and Resume brings it back"
        };
        if button(ui, "menu", egui::Button::new("Menu"), true, hover) {
            actions.push(PanelAction::Order(Command::Menu));
        }
        if local
            && button(ui, "new game", egui::Button::new("New game"), true, "Leave this game for a new one (asks first)")
        {
            actions.extend(windows.drop_game(model, Command::NewGame).map(PanelAction::Order));
        }
        if local
            && button(
                ui,
                "rematch",
                egui::Button::new("Rematch"),
                true,
                "The same game again, the seats moved round by one",
            )
        {
            actions.extend(windows.drop_game(model, Command::Rematch).map(PanelAction::Order));
        }
    });
    // Files anywhere (the desktop's dialogs; the browser has its own file buttons below), and
    // Pentobi's format for Trigon: a row that is there, or not, for the whole game.
    if cfg!(not(target_arch = "wasm32")) || G::INFO.sgf {
        ui.horizontal(|ui| {
            #[cfg(not(target_arch = "wasm32"))]
            {
                if button(ui, "open", egui::Button::new("Open…"), true, "Open a game from a .json or .blksgf file") {
                    actions.push(PanelAction::OpenFile);
                }
                let hover = if G::INFO.sgf {
                    "Save the game to a file you name: .json, or .blksgf (Pentobi's format)"
                } else {
                    "Save the game to a file you name (.json)"
                };
                if button(ui, "save as", egui::Button::new("Save as…"), true, hover) {
                    actions.push(PanelAction::SaveAs);
                }
            }
            if G::INFO.sgf
                && button(ui, "save sgf", egui::Button::new("Save .blksgf"), true, "Save in Pentobi's format")
            {
                actions.push(PanelAction::Save(Format::Sgf));
            }
        });
    }
    #[cfg(target_arch = "wasm32")]
    {
        let mut status = Status::default();
        crate::app::web::file_buttons(ui, model, &mut status, rects);
        if status != Status::default() {
            actions.push(PanelAction::Status(status));
        }
    }
    tool_buttons(ui, input, rects, actions);
}

/// The status line in an area `lines` lines high ([`STATUS_LINES`], one fewer on a short window),
/// whatever its length.
fn status_area(ui: &mut egui::Ui, status: &Status, lines: usize) {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let line = ui.fonts_mut(|f| f.row_height(&font));
    let color = if status.error { RED } else { ui.visuals().text_color() };
    let mut job = egui::text::LayoutJob::simple(status.text.clone(), font, color, ui.available_width());
    job.wrap.max_rows = lines;
    fixed_height(ui, line * lines as f32, |ui| {
        let label = ui.add(egui::Label::new(job).selectable(false));
        if status.text.len() > 40 {
            label.on_hover_text(&status.text);
        }
    });
}

/// The AI's progress with Move now while it thinks, else the hint for a person to move (at most
/// `lines` lines, [`STATUS_LINES`] or one fewer on a short window): the same height either way.
fn progress_area<G: AppGame>(
    ui: &mut egui::Ui,
    input: &PanelIn<G>,
    lines: usize,
    actions: &mut Vec<PanelAction<G::Move>>,
) {
    let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    let line = ui.text_style_height(&egui::TextStyle::Body);
    // Room for a line and Move now's row, and for `lines` lines of text (a wide window: one more).
    let height = if lines < STATUS_LINES { (row + line + 8.0).max(line * lines as f32) } else { row + line * 3.0 };
    fixed_height(ui, height + 4.0, |ui| {
        if input.model.review() {
            review_line(ui, input, lines - 1, actions);
        } else if let Some((level, sims, fraction)) = input.progress {
            ui.label(thinking_words(input.searching == Some(Purpose::Hint), level, sims));
            ui.horizontal(|ui| {
                if ui.button("Move now").on_hover_text("Play the best move found so far").clicked() {
                    actions.push(PanelAction::MoveNow);
                }
                ui.add(egui::ProgressBar::new(fraction).show_percentage());
            });
        } else if let Some(hint) = input.hint.filter(|h| !input.status.text.ends_with(h)) {
            // Said once: not here while the status line says it.
            let font = egui::TextStyle::Body.resolve(ui.style());
            let mut job = egui::text::LayoutJob::simple(
                format!("Hint: {hint}"),
                font,
                ui.visuals().strong_text_color(),
                ui.available_width(),
            );
            job.wrap.max_rows = lines.max(2);
            ui.add(egui::Label::new(job).selectable(false));
        } else if input.model.human_to_move() {
            let mut rows = lines.max(2);
            if let Some(verdict) = input.verdict {
                ui.label(egui::RichText::new(verdict).strong());
                rows -= 1;
            }
            let font = egui::TextStyle::Body.resolve(ui.style());
            let color = ui.visuals().weak_text_color();
            let mut job = egui::text::LayoutJob::simple(input.model.game().hint(), font, color, ui.available_width());
            job.wrap.max_rows = rows;
            ui.add(egui::Label::new(job).selectable(false));
        } else if let Some(verdict) = input.verdict {
            ui.label(egui::RichText::new(verdict).strong());
        }
    });
}

/// The line above the AI's progress bar: who is searching, and how many simulations so far once
/// there are some (the first report comes after the bar has moved: "0 simulations" beside 47 %
/// read as a stalled search).
pub fn thinking_words(hint: bool, level: crate::ai::Level, sims: u64) -> String {
    let who = if hint { "Looking for a hint…".to_string() } else { format!("AI {level} is thinking…") };
    match sims {
        0 => who,
        1 => format!("{who} 1 simulation"),
        n => format!("{who} {n} simulations"),
    }
}

/// Runs `add` in a strip of the full width exactly `height` points high (what it draws beyond is
/// clipped).
fn fixed_height(ui: &mut egui::Ui, height: f32, add: impl FnOnce(&mut egui::Ui)) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), height), egui::Sense::hover());
    let mut strip =
        ui.new_child(egui::UiBuilder::new().max_rect(rect).layout(egui::Layout::top_down(egui::Align::Min)));
    strip.set_clip_rect(rect.intersect(ui.clip_rect()));
    add(&mut strip);
}
