//! The window's text in English, Ukrainian and Russian: Fluent message files (with
//! each language's plural rules) compiled into the binary.

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};

/// A language the window speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Lang {
    #[default]
    En,
    Uk,
    Ru,
}

impl Lang {
    pub const ALL: [Self; 3] = [Self::En, Self::Uk, Self::Ru];

    /// The language's name in itself, as the language menu shows it.
    pub fn name(self) -> &'static str {
        match self {
            Self::En => "English",
            Self::Uk => "Українська",
            Self::Ru => "Русский",
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Uk => "uk",
            Self::Ru => "ru",
        }
    }

    /// The language's Fluent messages.
    pub fn source(self) -> &'static str {
        match self {
            Self::En => include_str!("locales/en.ftl"),
            Self::Uk => include_str!("locales/uk.ftl"),
            Self::Ru => include_str!("locales/ru.ftl"),
        }
    }
}

/// The messages of one language.
pub struct Text {
    lang: Lang,
    bundle: FluentBundle<FluentResource>,
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Text")
            .field("lang", &self.lang)
            .finish_non_exhaustive()
    }
}

impl Text {
    pub fn new(lang: Lang) -> Self {
        let tag = lang.tag().parse().expect("the language tags are valid");
        let mut bundle = FluentBundle::new(vec![tag]);
        // egui draws text as given: no invisible direction marks around arguments.
        bundle.set_use_isolating(false);
        // The files are part of the binary and checked by the tests; a broken one
        // leaves its messages missing (shown by their ids), never a crash.
        let resource = FluentResource::try_new(lang.source().to_owned())
            .unwrap_or_else(|(partial, _)| partial);
        let _ = bundle.add_resource(resource);
        Self { lang, bundle }
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The message `id`.
    pub fn get(&self, id: &str) -> String {
        self.format(id, None)
    }

    /// The message `id` with its arguments.
    pub fn with(&self, id: &str, args: &[(&str, Arg)]) -> String {
        let mut fluent = FluentArgs::new();
        for (name, value) in args {
            let value = match value {
                Arg::Num(n) => FluentValue::from(*n),
                Arg::Str(s) => FluentValue::from(s.clone()),
            };
            fluent.set(*name, value);
        }
        self.format(id, Some(&fluent))
    }

    /// Whether the language has the message `id` (for the tests).
    pub fn has(&self, id: &str) -> bool {
        self.bundle.has_message(id)
    }

    fn format(&self, id: &str, args: Option<&FluentArgs>) -> String {
        let Some(pattern) = self.bundle.get_message(id).and_then(|m| m.value()) else {
            return id.to_owned();
        };
        let mut errors = Vec::new();
        self.bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned()
    }
}

/// An argument of a message.
#[derive(Clone, Debug)]
pub enum Arg {
    Num(f64),
    Str(String),
}

impl From<u32> for Arg {
    fn from(n: u32) -> Self {
        Self::Num(f64::from(n))
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Self {
        Self::Num(n as f64)
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Self {
        Self::Str(s)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Self::Str(s.to_owned())
    }
}

/// The ids of the messages in a Fluent file, and whether it parsed without error
/// (for the tests: every language has the same messages).
pub fn message_ids(source: &str) -> (Vec<String>, bool) {
    let (resource, clean) = match FluentResource::try_new(source.to_owned()) {
        Ok(resource) => (resource, true),
        Err((partial, _)) => (partial, false),
    };
    let ids = resource
        .entries()
        .filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(message) => Some(message.id.name.to_owned()),
            _ => None,
        })
        .collect();
    (ids, clean)
}
