//! What every postcard snapshot target checks first: the input loads whole or is refused, and
//! what loads is sound, saves to at most its input and loads back to itself.

use serde::de::DeserializeOwned;

/// Loads `data` as a postcard `Loaded`; `None` if it is refused. A value that loads must pass
/// `check`, `save` to at most the bytes it was read from (postcard accepts overlong varints, so
/// the input need not be the canonical encoding, but it is never shorter), and load back to a
/// value that saves to the same bytes. Panics at the first fault.
pub fn load_postcard<Loaded: DeserializeOwned>(
    data: &[u8],
    check: impl Fn(&Loaded),
    save: impl Fn(&Loaded) -> Vec<u8>,
) -> Option<Loaded> {
    let (loaded, unread) = postcard::take_from_bytes::<Loaded>(data).ok()?;
    check(&loaded);
    let read = &data[..data.len() - unread.len()];
    let saved = save(&loaded);
    assert!(
        saved.len() <= read.len(),
        "the saved form is larger than its input"
    );
    let again: Loaded = postcard::from_bytes(&saved).expect("a saved form loads");
    assert_eq!(save(&again), saved, "a saved form loads as another value");
    Some(loaded)
}
