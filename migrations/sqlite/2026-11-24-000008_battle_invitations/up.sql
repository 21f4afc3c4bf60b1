-- A side of a battle set up by e-mail is an invitation until its player accepts it. While it is
-- open the side shows only the masked address (kept in the side's guest column), whether or not
-- the address has an account. `invitation` is `<state>:<side>` (state pending, accepted or
-- declined; side attacker or defender), and for an address without an account
-- `pending:<side>:<hash of the address>`, so that whoever later registers with it finds the
-- invitation waiting while the address itself is not stored. (One column: diesel's table
-- support stops at 32 columns, and battles had 31.)
ALTER TABLE battles ADD COLUMN invitation TEXT;
CREATE INDEX battles_invitation ON battles (invitation);
