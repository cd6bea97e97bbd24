use super::*;

/// The key of the system `name`, not restarting.
fn key<'a>(name: &'a str, hint: &'a mut usize) -> MemoryKey<'a> {
    MemoryKey {
        name,
        hint,
        restart: false,
    }
}

#[test]
fn kept_values_survive_a_clone_and_reset_on_a_new_type() {
    let mut memories = SystemMemories::default();
    let mut hint = 0;
    let memory = memories.find(key("count", &mut hint), "game::count");
    memory.begin(Tick(5));
    assert!(memory.ticks().is_first_run());
    let mut values = memory.prepare();
    values.keep::<u32>();
    values.keep::<i8>();
    let mut lent = memory.lend();
    *lent.take_next::<u32>().unwrap() += 3;
    *lent.take_next::<i8>().unwrap() -= 1;

    let copy = memories.clone();
    let memory = memories.find(key("count", &mut hint), "game::count");
    memory.begin(Tick(6));
    assert_eq!(memory.ticks().last_run(), Tick(5));
    assert!(!memory.ticks().is_first_run());
    let mut values = memory.prepare();
    values.keep::<u32>();
    values.keep::<u64>();
    let mut lent = memory.lend();
    assert_eq!(*lent.take_next::<u32>().unwrap(), 3);
    assert_eq!(
        *lent.take_next::<u64>().unwrap(),
        0,
        "a new type starts afresh"
    );
    assert_eq!(copy.get("count").unwrap().last_run(), Some(Tick(5)));

    let memory = memories.find(key("count", &mut hint), "game::other");
    memory.begin(Tick(7));
    assert!(
        memory.ticks().is_first_run(),
        "another function under the name"
    );
    assert!(memories.forget("count") && !memories.forget("count"));
}

#[test]
fn a_memory_is_its_function_s_by_address_or_by_name() {
    let memory = SystemMemory::new("count", "game::count");
    assert!(memory.is_of("game::count"));
    // The same name at another address (as a loaded memory's or another crate's copy).
    let elsewhere: &'static str = String::from("game::count").leak();
    assert!(!core::ptr::eq(elsewhere, "game::count") && memory.is_of(elsewhere));
    assert!(!memory.is_of("game::other") && !memory.is_of("game::coun"));
}

#[cfg(feature = "serde")]
#[test]
fn a_loaded_memory_keeps_its_cursors_and_defaults_its_placeholders() {
    let loaded = SystemMemory::loaded(
        String::from("read"),
        String::from("game::read"),
        Some(Tick(4)),
        [Some(EventCursor::at(7)), None],
        [],
    );
    let mut memories = SystemMemories::loaded(alloc::vec![loaded]);
    let mut hint = 0;
    let memory = memories.find(key("read", &mut hint), "game::read");
    memory.begin(Tick(6));
    assert!(!memory.ticks().is_first_run(), "the last run was loaded");
    assert_eq!(memory.ticks().last_run(), Tick(4));
    let mut values = memory.prepare();
    values.keep::<EventCursor>();
    values.keep::<u32>();
    let mut lent = memory.lend();
    assert_eq!(lent.take_next::<EventCursor>().unwrap().next_sequence(), 7);
    let local = lent.take_next::<u32>().unwrap();
    assert_eq!(*local, 0, "the placeholder became a default local");
    *local = 5;
    let saved: Vec<_> = memory.saved_values().collect();
    assert_eq!(saved, [Some(EventCursor::at(7)), None]);
    assert_eq!(memory.function(), "game::read");

    let memory = memories.find(key("read", &mut hint), "game::other");
    assert!(
        memory.last_run().is_none(),
        "another function starts afresh"
    );
}

#[cfg(feature = "serde")]
#[test]
fn a_saved_local_is_saved_as_bytes_decoded_at_the_next_run_or_defaulted() {
    let saved = |memory: &SystemMemory| -> Vec<(usize, Vec<u8>)> {
        memory.saved_locals().map(Result::unwrap).collect()
    };
    let mut memories = SystemMemories::default();
    let mut hint = 0;
    let memory = memories.find(key("count", &mut hint), "game::count");
    let mut values = memory.prepare();
    values.keep::<u32>();
    values.keep_saved::<u16>();
    let mut lent = memory.lend();
    *lent.take_next::<u32>().unwrap() = 9;
    *lent.take_next::<u16>().unwrap() = 0x0102;
    // postcard's encoding of 0x0102: a varint, seven bits a byte, low ones first.
    assert_eq!(
        saved(memory),
        [(1, alloc::vec![0x82, 0x02])],
        "the plain local is not saved"
    );
    assert_eq!(memory.saved_values().collect::<Vec<_>>(), [None, None]);

    let loaded = |bytes: Vec<u8>| {
        SystemMemory::loaded(
            String::from("count"),
            String::from("game::count"),
            Some(Tick(1)),
            [None, None],
            [(1, bytes)],
        )
    };
    let mut memory = loaded(alloc::vec![0x82, 0x02]);
    assert_eq!(
        saved(&memory),
        [(1, alloc::vec![0x82, 0x02])],
        "saved again as loaded"
    );
    let mut values = memory.prepare();
    values.keep::<u32>();
    values.keep_saved::<u16>();
    let mut lent = memory.lend();
    assert_eq!(
        *lent.take_next::<u32>().unwrap(),
        0,
        "a plain local restarts"
    );
    assert_eq!(
        *lent.take_next::<u16>().unwrap(),
        0x0102,
        "the saved one goes on"
    );

    // Not a u16's bytes: a byte left over, too few, too large a value, none.
    for bytes in [&[0x82, 0x02, 0][..], &[0x82], &[0xFF, 0xFF, 0x7F], &[]] {
        let mut memory = loaded(bytes.to_vec());
        let mut values = memory.prepare();
        values.keep_saved::<u32>();
        values.keep_saved::<u16>();
        let mut lent = memory.lend();
        lent.take_next::<u32>();
        assert_eq!(
            *lent.take_next::<u16>().unwrap(),
            0,
            "{bytes:?}: the default"
        );
    }

    // A plain local of the same type taking a saved one's place is no longer saved.
    let mut values = memory.prepare();
    values.keep_saved::<u32>();
    values.keep::<u16>();
    assert_eq!(saved(&memory), [(0, alloc::vec![0])]);
}

#[cfg(feature = "serde")]
#[test]
fn saved_bytes_decode_whole_or_not_at_all() {
    type Value = (u32, String, Vec<Option<i64>>, [bool; 2]);
    let value: Value = (
        7,
        String::from("wave"),
        alloc::vec![Some(-3), None],
        [true, false],
    );
    let bytes = postcard::to_allocvec(&value).unwrap();
    assert_eq!(decode_saved::<Value>(&bytes), Some(value));
    for length in 0..bytes.len() {
        assert_eq!(decode_saved::<Value>(&bytes[..length]), None, "{length}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(decode_saved::<Value>(&longer), None, "a byte left over");
    // A huge claimed length allocates nothing it cannot fill: the bytes run out first.
    let huge = postcard::to_allocvec(&u64::MAX).unwrap();
    assert_eq!(decode_saved::<Vec<u8>>(&huge), None);
    assert_eq!(decode_saved::<String>(&huge), None);
}

/// A value postcard cannot encode (a sequence of unknown length) is an error at the save,
/// which the snapshot reports under the system's name.
#[cfg(feature = "serde")]
#[test]
fn a_saved_local_postcard_cannot_encode_is_an_error() {
    #[derive(Clone, Default, serde::Deserialize)]
    struct UnknownLength;
    impl serde::Serialize for UnknownLength {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serde::ser::SerializeSeq::end(serializer.serialize_seq(None)?)
        }
    }
    let mut memories = SystemMemories::default();
    let mut hint = 0;
    let memory = memories.find(key("odd", &mut hint), "game::odd");
    memory.prepare().keep_saved::<UnknownLength>();
    let saved: Vec<_> = memory.saved_locals().collect();
    assert_eq!(saved, [Err(postcard::Error::SerializeSeqLengthUnknown)]);
}
