-- bootbench schema 5: libvirt launcher and fleets. A run may spread its samples over several
-- hosts, so each boot names the host it ran on and how it was launched; a host reached through
-- libvirt records its connection URI. Old boots ran on their run's host (host_id NULL).
ALTER TABLE hosts ADD COLUMN libvirt_uri TEXT;
ALTER TABLE boots ADD COLUMN host_id INTEGER REFERENCES hosts(id);
ALTER TABLE boots ADD COLUMN launcher TEXT NOT NULL DEFAULT 'qemu'
    CHECK (launcher IN ('qemu', 'libvirt'));
ALTER TABLE boots ADD COLUMN libvirt_uri TEXT;
ALTER TABLE boots ADD COLUMN domain_xml TEXT; -- libvirt: the domain exactly as created
