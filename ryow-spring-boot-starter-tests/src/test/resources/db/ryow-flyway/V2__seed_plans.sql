INSERT INTO mig_plans VALUES (1, 'free'), (2, 'team'), (3, 'enterprise');
