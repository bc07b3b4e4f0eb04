//! `armada bench-window`'s measurement (feature `bench`): the real window, a game
//! against the computer, frame times while weapons animate, memory.
//!
//! Architecture invariant: measures only; the shipped window never compiles it.

use super::{Armada, run_native};

/// What `armada bench-window` measured.
#[derive(Clone, Debug, Default)]
pub struct WindowFigures {
    /// From the start of the process to the end of the first frame.
    pub first_frame_ms: f64,
    /// eframe's CPU time per frame while air strikes' shells fall and torpedoes run.
    pub frame_cpu_ms: Vec<f64>,
    /// Wall time between those frames (the software renderer included).
    pub frame_wall_ms: Vec<f64>,
    /// Of each frame, the time the window's own code took (drawing the screens).
    pub show_ms: Vec<f64>,
    pub rss_mib: f64,
    pub peak_rss_mib: f64,
    /// Weapons fired (air strikes, then torpedoes): 4 when the run went to its end;
    /// at Icehouse Armada, the frames measured while aiming.
    pub weapons: u32,
}

/// Which screen `armada bench-window` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchScreen {
    /// The sea battle while air strikes and torpedoes animate.
    Sea,
    /// Icehouse Armada while a step's ghost and then a broadside's shadow follow a
    /// pointer circling a ship, its targets lit every frame.
    Icehouse,
}

/// Frames measured at the Icehouse table: half with the ghost, half with the shadow.
const ICE_FRAMES: u64 = 600;

/// Opens the real window, plays a game against the computer far enough for both air
/// strikes and both torpedoes, and measures the first frame, each frame while the
/// shells fall, and the resident memory; then closes the window. Frames start `fps`
/// times a second, as a display's refresh would pace them; with 0 each frame starts
/// as soon as the last one ends (on a server without vsync, such as Xvfb, the
/// renderer then still draws one frame while the window builds the next).
pub fn bench(
    store: crate::driver::Store,
    started: std::time::Instant,
    fps: u32,
    screen: BenchScreen,
) -> anyhow::Result<WindowFigures> {
    let period = (fps > 0).then(|| std::time::Duration::from_secs(1) / fps);
    let figures = std::sync::Arc::new(std::sync::Mutex::new(WindowFigures::default()));
    let out = figures.clone();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Armada — benchmark")
            .with_inner_size([1100.0, 760.0]),
        ..Default::default()
    };
    let clock = std::time::Instant::now();
    let mut armada = Armada::new(Some(store)).on_cleared_window();
    let mut frame_no = 0u64;
    let mut strikes = 0;
    let mut aimed = 0u64;
    let mut last = std::time::Instant::now();
    let mut next_frame = std::time::Instant::now();
    let result = run_native("Armada benchmark", options, move |ui, frame| {
        let begun = std::time::Instant::now();
        let now = clock.elapsed().as_millis() as crate::driver::Millis;
        let animating = match screen {
            BenchScreen::Sea => armada.animating(),
            BenchScreen::Icehouse => {
                frame_no > 1 && armada.bench_icehouse_aim(aimed, aimed < ICE_FRAMES / 2)
            }
        };
        armada.show(ui, now);
        let show_ms = begun.elapsed().as_secs_f64() * 1000.0;
        let mut f = out
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        frame_no += 1;
        if frame_no == 1 {
            f.first_frame_ms = started.elapsed().as_secs_f64() * 1000.0;
            match screen {
                BenchScreen::Sea => armada.bench_open(now),
                BenchScreen::Icehouse => armada.bench_open_icehouse(now),
            }
        } else if animating {
            aimed += 1;
            if let Some(cpu) = frame.info().cpu_usage {
                f.frame_cpu_ms.push(f64::from(cpu) * 1000.0);
            }
            f.frame_wall_ms.push(last.elapsed().as_secs_f64() * 1000.0);
            f.show_ms.push(show_ms);
        } else if strikes < 4 && armada.bench_air_strike(now) {
            strikes += 1;
        }
        last = std::time::Instant::now();
        let done = match screen {
            BenchScreen::Sea => strikes == 4 && !armada.animating(),
            BenchScreen::Icehouse => aimed >= ICE_FRAMES,
        };
        if done || clock.elapsed() > std::time::Duration::from_mins(1) {
            let (rss, peak) = memory();
            f.rss_mib = rss;
            f.peak_rss_mib = peak;
            f.weapons = match screen {
                BenchScreen::Sea => strikes,
                BenchScreen::Icehouse => aimed as u32,
            };
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        match period {
            // The next frame one period after this one began (or at once if late).
            Some(period) => {
                next_frame = (next_frame + period).max(begun);
                let wait = next_frame.saturating_duration_since(std::time::Instant::now());
                ui.ctx().request_repaint_after(wait);
            }
            None => ui.ctx().request_repaint(),
        }
    });
    result.map_err(|e| anyhow::anyhow!("cannot open a window: {e}"))?;
    let figures = figures
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    anyhow::ensure!(
        !figures.frame_cpu_ms.is_empty(),
        "nothing was animated or aimed before the time ran out"
    );
    Ok(figures)
}

/// Resident and peak resident memory of this process in MiB (Linux; zero elsewhere).
fn memory() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kib| kib / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The scenes `armada bench-window --game icehouse --shots DIR` saves.
const SCENES: [&str; 5] = [
    "icehouse_ghost",
    "icehouse_fire",
    "icehouse_sinking",
    "icehouse_results",
    "icehouse_placement",
];

/// Opens the real window on an Icehouse table against the computer, plays the
/// person's side with the hard captain, and saves a picture of each scene as the
/// real renderer drew it (`DIR/NAME.png`): the fleet being laid, a step's ghost, a
/// lit target under the shadow, a sinking and the results. The names saved.
pub fn icehouse_shots(
    store: crate::driver::Store,
    dir: &std::path::Path,
) -> anyhow::Result<Vec<String>> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Armada — pictures")
            .with_inner_size([1100.0, 760.0]),
        ..Default::default()
    };
    let clock = std::time::Instant::now();
    let mut armada = Armada::new(Some(store)).without_pauses();
    let saved = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let out = saved.clone();
    let dir = dir.to_owned();
    let mut waiting: Option<&'static str> = None;
    let mut frame_no = 0u64;
    let result = run_native("Armada pictures", options, move |ui, _| {
        let now = clock.elapsed().as_millis() as crate::driver::Millis;
        frame_no += 1;
        let mut done = out
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for event in ui.input(|i| i.raw.events.clone()) {
            if let egui::Event::Screenshot {
                image, user_data, ..
            } = event
                && let Some(name) = user_data
                    .data
                    .as_ref()
                    .and_then(|d| d.downcast_ref::<&'static str>())
            {
                let [w, h] = image.size;
                let bytes: Vec<u8> = image
                    .pixels
                    .iter()
                    .flat_map(egui::Color32::to_array)
                    .collect();
                if let Some(png) = image::RgbaImage::from_raw(w as u32, h as u32, bytes) {
                    let _ = png.save(dir.join(format!("{name}.png")));
                    done.push((*name).to_owned());
                }
                waiting = None;
            }
        }
        if frame_no == 2 {
            armada.bench_open_icehouse_unlaid(now);
        }
        let names: Vec<&str> = done.iter().map(String::as_str).collect();
        let scene = if waiting.is_some() || frame_no < 3 {
            None
        } else if armada.bench_icehouse_lay(now) {
            Some("icehouse_placement")
        } else {
            armada.bench_icehouse_scene(now, &names)
        };
        armada.show(ui, now);
        if let Some(name) = scene.filter(|n| !names.contains(n)) {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Screenshot(egui::UserData::new(name)));
            waiting = Some(name);
        }
        if done.len() == SCENES.len() || clock.elapsed() > std::time::Duration::from_mins(3) {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        ui.ctx().request_repaint();
    });
    result.map_err(|e| anyhow::anyhow!("cannot open a window: {e}"))?;
    let saved = saved
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    Ok(saved)
}
