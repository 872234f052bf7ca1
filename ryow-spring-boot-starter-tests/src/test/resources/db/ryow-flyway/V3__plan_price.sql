ALTER TABLE mig_plans ADD COLUMN price INT NOT NULL DEFAULT 0;
UPDATE mig_plans SET price = id * 10;
