-- bootbench schema 12: the host's conditions per boot (issue 30 item 4, util/host_conditions.h):
-- CPU model and microcode, governor, boost, SMT, THP, KSM, host kernel, isolated and nohz_full
-- CPUs, the qemu version and the accelerator, as one JSON object. Each distinct object is stored
-- once and boots point at it, so "did the host change between two nights" is one comparison of
-- ids. NULL: written before schema 12, or a boot on a fleet host bootbench cannot read.
CREATE TABLE host_conditions (
    id INTEGER PRIMARY KEY,
    facts_json TEXT NOT NULL UNIQUE CHECK (json_valid(facts_json))
);
ALTER TABLE boots ADD COLUMN host_conditions_id INTEGER REFERENCES host_conditions(id);
