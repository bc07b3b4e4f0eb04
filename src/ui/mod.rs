//! The desktop window (eframe/egui): it renders session state and turns gestures
//! into session commands — no game logic lives here.
//!
//! Architecture invariant: the window never decides anything about a game; rules,
//! proofs and verdicts come from the session, computer moves from [`crate::bot`].

mod app;
#[cfg(feature = "bench")]
mod bench;
mod board;
mod draft;
mod i18n;
mod ice_view;
mod palette;

pub use app::{Armada, Mode, Prefs};
#[cfg(feature = "bench")]
pub use bench::{BenchScreen, WindowFigures, bench, icehouse_shots};
pub use draft::{Draft, Problem};
pub use i18n::{Arg, Lang, Text, message_ids};

/// The window's application id, the launcher entry's and the `AppStream` id
/// (`pkg/io.github.armada_p2p.Armada.*`).
pub const APP_ID: &str = "io.github.armada_p2p.Armada";

/// Opens the window and runs it until it is closed; the exit code. Where no window
/// can be opened, says so in one line and points to the terminal commands. `net`:
/// how friend tables listen and find peers (`None`: every interface, `mDNS` and
/// `UPnP`, and the public network unless the environment refuses it).
pub fn run(store: Option<crate::driver::Store>, net: Option<crate::driver::Config>) -> u8 {
    let unix_without_display = cfg!(all(unix, not(target_os = "macos")))
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none();
    if unix_without_display {
        no_window("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)");
        return 2;
    }
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Armada")
            // The launcher entry's name: desktops find its icon by this id.
            .with_app_id(APP_ID)
            .with_inner_size([1100.0, 760.0])
            .with_min_inner_size([640.0, 480.0]),
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let mut armada = Armada::new(store).on_cleared_window();
    if let Some(net) = net {
        armada = armada.with_network(net);
    }
    let result = run_native("Armada", options, move |ui, _frame| {
        let now = start.elapsed().as_millis() as crate::driver::Millis;
        armada.show(ui, now);
    });
    match result {
        Ok(()) => 0,
        Err(error) => {
            no_window(&error.to_string());
            2
        }
    }
}

/// Runs `ui` each frame in a native window that clears to the panel colour (so
/// [`Armada::on_cleared_window`] need not paint the central panel).
fn run_native(
    name: &str,
    options: eframe::NativeOptions,
    ui: impl FnMut(&mut egui::Ui, &mut eframe::Frame) + 'static,
) -> eframe::Result {
    struct Shell<U>(U);

    impl<U: FnMut(&mut egui::Ui, &mut eframe::Frame)> eframe::App for Shell<U> {
        fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
            (self.0)(ui, frame);
        }

        fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
            visuals.panel_fill.to_normalized_gamma_f32()
        }
    }

    eframe::run_native(name, options, Box::new(|_| Ok(Box::new(Shell(ui)))))
}

/// Says why no window opened: on standard error, and where there is a display (the
/// launcher's case: nobody reads a terminal) in a message box too, when the desktop
/// has a program to show one.
fn no_window(why: &str) {
    let text = format!(
        "Armada cannot open a window: {why}. Play in the terminal instead: \
         `armada host --bot medium` and `armada join LINK`, or watch `armada demo`."
    );
    eprintln!("armada: {text}");
    let display =
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    if display {
        let shown = native_dialog::DialogBuilder::message()
            .set_level(native_dialog::MessageLevel::Error)
            .set_title("Armada")
            .set_text(&text)
            .alert()
            .show();
        if let Err(error) = shown {
            eprintln!("armada: no message box either: {error}");
        }
    }
}
