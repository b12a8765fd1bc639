//! Rust enums exposed as Godot class enums, the way the engine's own enums look.
//!
//! gdext 0.5.5's `#[derive(GodotConvert)]` converts an enum to an `int` but does not register it
//! with Godot (its shape has no `godot_name`, and its enumerators are not class constants), so
//! GDScript could neither name the values nor type a variable with the enum. [`class_enum!`]
//! does the three missing parts:
//!
//! - registers every enumerator as a constant of the class, grouped under the enum's name
//!   (`WaterSample.Kind` with `WaterSample.KIND_LAKE`, …), through gdext's constant registry
//!   ([`register`], called by the extension's entry point);
//! - gives properties, parameters and return values of the enum type the enum's qualified name
//!   (`class_name = "WaterSample.Kind"` with the `CLASS_IS_ENUM` usage), so the inspector, the
//!   script editor's completion and the class reference show the enum, not a bare `int`;
//! - adds the enumerators' descriptions to the class reference through gdext's documentation
//!   registry (the same XML path `#[constant]` uses).
//!
//! The conversion itself is `int` both ways; an out-of-range integer is a conversion error, never
//! a silently chosen variant.

use godot::builtin::{StringName, VariantType};
use godot::meta::shape::{EnumeratorShape, GodotShape};
use godot::obj::GodotClass;
use std::borrow::Cow;

/// One enumerator: its Godot constant name, value and description (Godot BBCode).
pub struct Enumerator {
    /// Constant name as GDScript sees it (`KIND_LAKE`).
    pub name: &'static str,
    /// Its integer value.
    pub value: i64,
    /// Description for the class reference.
    pub doc: &'static str,
}

/// A Rust enum registered as an enum of the class [`ClassEnum::Class`]. Implemented by
/// [`class_enum!`].
pub trait ClassEnum: Sized + Copy + 'static {
    /// The class that owns the enum.
    type Class: GodotClass;
    /// The enum's name inside the class (`Kind`).
    const NAME: &'static str;
    /// Every enumerator, in declaration order.
    const ENUMERATORS: &'static [Enumerator];
    /// The variant with this value, if any.
    fn from_ord(value: i64) -> Option<Self>;
}

/// Registers `E`'s enumerators as the class enum `Class.NAME`. Call it once the class itself is
/// registered: the extension does so in `on_stage_init(InitStage::Scene)`, which gdext runs after
/// registering that stage's classes. (gdext 0.5.5's `register_class` hook cannot be used: its
/// generated code names a `godot::builder` module the crate does not export.)
pub fn register<E: ClassEnum>() {
    // gdext keeps its constant registration types under `register::private`; they are what its
    // own `#[constant]` expands to, with the enum variant of `ConstantKind`.
    use godot::register::private::constant::{ConstantKind, ExportConstant, IntegerConstant};
    ExportConstant::new(
        <E::Class as GodotClass>::class_id(),
        ConstantKind::Enum {
            name: StringName::from(E::NAME),
            enumerators: E::ENUMERATORS
                .iter()
                .map(|e| IntegerConstant::new(e.name, e.value))
                .collect(),
        },
    )
    .register();
}

/// The property shape of `E`: an `int` enum named `Class.NAME`.
pub fn shape<E: ClassEnum>() -> GodotShape {
    let class = <E::Class as GodotClass>::class_id().to_string();
    GodotShape::Enum {
        variant_type: VariantType::INT,
        enumerators: Cow::Owned(
            E::ENUMERATORS
                .iter()
                .map(|e| EnumeratorShape::new_int(e.name, e.value))
                .collect(),
        ),
        godot_name: Some(Cow::Owned(format!("{class}.{}", E::NAME))),
        is_bitfield: false,
    }
}

/// The `<constant>` elements documenting `E` in Godot's class reference XML.
pub fn docs_xml<E: ClassEnum>() -> String {
    E::ENUMERATORS
        .iter()
        .map(|e| {
            format!(
                r#"<constant name="{}" value="{}" enum="{}">{}</constant>"#,
                escape(e.name),
                e.value,
                escape(E::NAME),
                escape(&one_paragraph(e.doc))
            )
        })
        .collect()
}

/// Doc-comment lines joined into one paragraph (each `///` line is one source line).
fn one_paragraph(doc: &str) -> String {
    doc.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// XML text escaping (the documentation strings are BBCode, which XML must carry verbatim).
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Declares a Rust enum that Godot sees as an enum of a class:
///
/// ```ignore
/// class_enum! {
///     /// What kind of water body a sample is in.
///     pub enum WaterKind for WaterSample as "Kind" {
///         /// A lake.
///         Lake = 0 as "KIND_LAKE",
///     }
/// }
/// ```
///
/// The extension must call [`register`]`::<WaterKind>()` once the class is registered.
macro_rules! class_enum {
    (
        $(#[doc = $doc:literal])*
        $vis:vis enum $name:ident for $class:ident as $godot:literal {
            $(
                $(#[doc = $vdoc:literal])*
                $variant:ident = $value:literal as $constant:literal
            ),+ $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[doc = $vdoc])* $variant = $value ),+
        }

        impl $crate::convert::class_enum::ClassEnum for $name {
            type Class = $class;
            const NAME: &'static str = $godot;
            const ENUMERATORS: &'static [$crate::convert::class_enum::Enumerator] = &[
                $( $crate::convert::class_enum::Enumerator {
                    name: $constant,
                    value: $value,
                    doc: concat!($($vdoc, "\n",)*),
                } ),+
            ];
            fn from_ord(value: i64) -> Option<Self> {
                match value {
                    $( $value => Some(Self::$variant), )+
                    _ => None,
                }
            }
        }

        impl ::godot::meta::GodotConvert for $name {
            type Via = i64;
            fn godot_shape() -> ::godot::meta::shape::GodotShape {
                $crate::convert::class_enum::shape::<$name>()
            }
        }

        impl ::godot::meta::ToGodot for $name {
            type Pass = ::godot::meta::conv::ByValue;
            fn to_godot(&self) -> i64 {
                *self as i64
            }
        }

        impl ::godot::meta::FromGodot for $name {
            fn try_from_godot(via: i64) -> Result<Self, ::godot::meta::error::ConvertError> {
                <Self as $crate::convert::class_enum::ClassEnum>::from_ord(via).ok_or_else(|| {
                    ::godot::meta::error::ConvertError::with_error_value(
                        concat!("not a value of ", stringify!($class), ".", $godot),
                        via,
                    )
                })
            }
        }

        impl ::godot::meta::Element for $name {}

        impl ::godot::register::property::Export for $name {}

        impl ::godot::register::property::Var for $name {
            type PubType = Self;
            fn var_get(field: &Self) -> i64 {
                *field as i64
            }
            fn var_set(field: &mut Self, value: i64) {
                match <Self as $crate::convert::class_enum::ClassEnum>::from_ord(value) {
                    Some(v) => *field = v,
                    None => ::godot::global::godot_error!(
                        "{} is not a value of {}.{}; kept {:?}",
                        value,
                        stringify!($class),
                        $godot,
                        field
                    ),
                }
            }
            fn var_pub_get(field: &Self) -> Self {
                *field
            }
            fn var_pub_set(field: &mut Self, value: Self) {
                *field = value;
            }
        }

        ::godot::sys::shard_add!(::godot::private::__GODOT_DOCS_REGISTRY;
            ::godot::private::DocsShard::new::<$class>(
                ::godot::private::DocsItem::InherentImpl(::godot::private::InherentImplDocs {
                    methods_xml: "",
                    signals_xml: "",
                    constants_xml: ::std::boxed::Box::leak(
                        $crate::convert::class_enum::docs_xml::<$name>().into_boxed_str(),
                    ),
                })
            )
        );
    };
}

pub(crate) use class_enum;
