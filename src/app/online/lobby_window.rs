//! The Play online… window over the start screen: its system gathers what
//! [`online_window`] draws from and carries out what was pressed ([`carry_out`]: messages to the
//! server through the lobby, the account and the pages).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::account::Account;
use super::link::{Link, read_invitation};
use super::lobby::Lobby;
use super::pages::Pages;
use super::window::online_window;
use super::window_in::{Chosen, LobbyAction, WindowIn};
use crate::app::choices::Choices;
use crate::app::flow::Screen;
use crate::app::settings::Settings;
use crate::app::ui::UiRects;

/// The window itself (with the app's egui).
pub fn view_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, lobby_window.run_if(in_state(Screen::Menu)));
}

/// What the window's presses change: the lobby, the account, the pages, the settings kept, and
/// the connection the messages go by.
pub struct Online<'a> {
    /// The window's state.
    pub lobby: &'a mut Lobby,
    /// The account.
    pub account: &'a mut Account,
    /// The leaderboard and the player's page.
    pub pages: &'a mut Pages,
    /// The seats held and the sessions.
    pub settings: &'a mut Settings,
    /// The connection.
    pub link: &'a mut Link,
}

/// The chosen game of the start screen's form.
pub fn chosen(choices: &Choices) -> Chosen {
    let (game, options, seats) = choices.chosen();
    Chosen { game, options, seats, name: choices.chosen_name() }
}

/// The Play online… window over the start screen.
fn lobby_window(
    mut contexts: EguiContexts,
    (mut lobby, mut account, mut pages): (ResMut<Lobby>, ResMut<Account>, ResMut<Pages>),
    (mut link, mut settings): (NonSendMut<Link>, ResMut<Settings>),
    choices: Res<Choices>,
    mut rects: ResMut<UiRects>,
) -> Result {
    if !lobby.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let chosen = chosen(&choices);
    let server = link.url().to_string();
    let state = link.state().clone();
    let mut input = WindowIn {
        lobby: &mut lobby,
        account: &mut account,
        pages: &mut pages,
        settings: &settings,
        link: (&server, &state),
        chosen: chosen.clone(),
    };
    let actions = online_window(ctx, &mut input, &mut rects);
    let mut online = Online {
        lobby: &mut lobby,
        account: &mut account,
        pages: &mut pages,
        settings: &mut settings,
        link: &mut link,
    };
    for action in actions {
        carry_out(action, &mut online, &chosen);
    }
    Ok(())
}

/// Carries out a press of the Play online window: `chosen` is the game Create, Post and Play a
/// bot start.
pub fn carry_out(action: LobbyAction, online: &mut Online, chosen: &Chosen) {
    let Online { lobby, account, pages, settings, link } = online;
    let url = lobby.server_url(settings);
    let game = (chosen.game.as_str(), chosen.options.clone());
    // The account and the pages are the lobby's server's: the link goes there first (a message
    // queued for another server would be dropped when it changes).
    if let Ok(url) = &url
        && !matches!(action, LobbyAction::Join | LobbyAction::Resume(_))
    {
        link.want(url);
    }
    match action {
        LobbyAction::SignUp => account.sign_up(link, settings),
        LobbyAction::LogIn => account.log_in(link, settings),
        LobbyAction::SignOut => account.sign_out(link, settings),
        LobbyAction::Accept(game_id) => lobby.accept(link, &game_id),
        LobbyAction::Withdraw(game_id) => lobby.withdraw(link, &game_id, settings),
        LobbyAction::Watch(game_id) => lobby.watch(link, &game_id, settings),
        LobbyAction::Post | LobbyAction::Create | LobbyAction::PlayBot(_) => match &url {
            Ok(url) => match action {
                LobbyAction::Post => lobby.post(link, url, game.0, game.1),
                LobbyAction::Create => lobby.create(link, url, game.0, game.1),
                LobbyAction::PlayBot(bot) => lobby.play_bot(link, url, game, &bot),
                _ => {}
            },
            Err(e) => lobby.said = Some(e.clone()),
        },
        // A link that does not read is refused with its reason, and the Server field is left as
        // it was: only a link read whole names another server.
        LobbyAction::Join => {
            match read_invitation(&lobby.invitation).and_then(|(code, server)| Ok((code, server.map_or(url, Ok)?))) {
                Ok((code, url)) => lobby.join(link, &url, &code, settings),
                Err(e) => lobby.said = Some(e),
            }
        }
        LobbyAction::Resume(seat) => lobby.resume(seat, link, settings),
        LobbyAction::Forget(game_id) => {
            let server = link.url().to_string();
            settings.online.games.retain(|s| !(s.server == server && s.game_id == game_id));
        }
        LobbyAction::Leaderboard(game) => pages.ask_leaderboard(link, &game),
        LobbyAction::Profile(name) => {
            lobby.tab = super::lobby::LobbyTab::Player;
            pages.ask_profile(link, &name);
        }
        LobbyAction::Fetch(listing, use_) => pages.fetch(link, &listing, use_),
    }
}
