//! Enums spelled as words (`--suite` names, a row's status): each variant's word written once, by the `words!` macro.

/// An enum each of whose variants is one fixed word (how the command line takes it, how a
/// file spells it): the variants in declaration order and each one's word.
pub trait Words: Copy + Sized + 'static {
    /// Every variant, in declaration order.
    const ALL: &'static [Self];

    /// The variant's word.
    fn word(self) -> &'static str;

    /// The variant whose word is `word`, exactly; `None` for any other text.
    fn from_word(word: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.word() == word)
    }
}

/// Declares an enum with one word per variant (`Variant = "word"`) and implements
/// [`Words`](crate::words::Words) and `Display` (the word) for it; doc comments and other
/// attributes stay on the enum and its variants.
#[macro_export]
macro_rules! words {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $crate::words::Words for $name {
            const ALL: &'static [Self] = &[$( $name::$variant ),+];

            fn word(self) -> &'static str {
                match self {
                    $( $name::$variant => $word ),+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::words::Words::word(*self))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Words;

    crate::words! {
        /// A test enum.
        #[derive(Clone, Copy, Debug, PartialEq)]
        enum Colour {
            /// The first.
            Red = "red",
            DarkBlue = "dark-blue",
        }
    }

    #[test]
    fn words_are_written_and_read_back() {
        assert_eq!(Colour::ALL, &[Colour::Red, Colour::DarkBlue]);
        assert_eq!(Colour::DarkBlue.word(), "dark-blue");
        assert_eq!(Colour::DarkBlue.to_string(), "dark-blue");
        assert_eq!(Colour::from_word("red"), Some(Colour::Red));
        assert_eq!(Colour::from_word("Red"), None);
    }
}
